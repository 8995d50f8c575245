import type { ConsumerRules } from "../consumer-rules.js";
import type { GateReport } from "../verdict.js";
import { junitGateReport } from "./junit.js";
import { prettyGateReport } from "./pretty.js";
import type { ReporterName } from "./reporter.js";

/** The JSON report: the verdicts as they are, each finding with its rule's fix. */
export function jsonGateReport(report: GateReport, rules: ConsumerRules): string {
  const scenarios = report.scenarios.map((v) => ({
    ...v,
    findings: v.findings.map((f) => ({ ...f, fix: rules.byId(f.rule).fix })),
  }));
  return `${JSON.stringify({ tool: "assopay gate", ...report, scenarios }, null, 2)}\n`;
}

/** Writes a gate report the chosen way. */
export function formatGateReport(report: GateReport, rules: ConsumerRules, reporter: ReporterName): string {
  switch (reporter) {
    case "pretty":
      return prettyGateReport(report, rules);
    case "json":
      return jsonGateReport(report, rules);
    case "junit":
      return junitGateReport(report, rules);
  }
}
