import { type ConsumerRules, GATE_RULE_IDS } from "../consumer-rules.js";
import type { Finding, GateReport } from "../verdict.js";
import { type JunitSuite, junitXml } from "./junit-xml.js";

function findingText(finding: Finding): string {
  const lines = [finding.message];
  if (finding.request) {
    const r = finding.request;
    lines.push(`request #${r.seq}: ${r.method} ${r.url}${r.status === undefined ? "" : ` -> ${r.status}`}`);
  }
  lines.push(...finding.details);
  if (finding.more > 0) lines.push(`(${finding.more} more like it)`);
  return lines.join("\n");
}

/** JUnit XML: one suite per scenario, one case per gate rule; advice goes to the suite's system-out. */
export function junitGateReport(report: GateReport, rules: ConsumerRules): string {
  const suites: JunitSuite[] = report.scenarios.map((verdict) => {
    const classname = `assopay.gate.${verdict.scenario}`;
    const errors = verdict.findings.filter((f) => f.severity === "error");
    const advice = verdict.findings.filter((f) => f.severity === "advice");
    return {
      name: `gate ${verdict.scenario}`,
      timeSeconds: verdict.command.durationMs / 1000,
      properties: { at: verdict.at, summary: verdict.summary, requests: String(verdict.requests) },
      cases: GATE_RULE_IDS.map((rule) => {
        const broken = errors.filter((f) => f.rule === rule);
        const first = broken[0];
        if (!first) return { classname, name: rule };
        return {
          classname,
          name: rule,
          failure: {
            type: rule,
            message: first.message,
            text: [...broken.map(findingText), `fix: ${rules.byId(rule).fix}`].join("\n\n"),
          },
        };
      }),
      ...(advice.length > 0
        ? { systemOut: advice.map((f) => `advice ${f.rule}: ${findingText(f)}`).join("\n\n") }
        : {}),
    };
  });
  return junitXml(`assopay gate: ${report.command.join(" ")}`, suites);
}
