import type { ConsumerRules } from "../../gate/consumer-rules.js";
import { type JunitSuite, junitXml } from "../../gate/report/junit-xml.js";
import type { ReporterName } from "../../gate/report/reporter.js";
import type { CaseOutcome, CaseVerdict, NotifyReport } from "../verdict.js";

const MARK: Readonly<Record<CaseOutcome, string>> = { pass: "PASS", fail: "FAIL", note: "NOTE" };

function prettyCase(c: CaseVerdict, rules: ConsumerRules, explained: Set<string>): string[] {
  const lines = [`${MARK[c.outcome]} ${c.id}: ${c.title}`, `     ${c.reason}`];
  if (c.outcome === "fail") {
    lines.push(
      explained.has(c.rule) ? `     rule ${c.rule}` : `     rule ${c.rule}; fix: ${rules.byId(c.rule).fix}`,
    );
    explained.add(c.rule);
  }
  return lines;
}

/** The report for people: each case, its verdict and, on failure, the rule and the fix. */
export function prettyNotifyReport(report: NotifyReport, rules: ConsumerRules): string {
  const lines = [`assopay notify: ${report.cases.length} cases sent to ${report.to}`, ""];
  const explained = new Set<string>();
  for (const c of report.cases) lines.push(...prettyCase(c, rules, explained));
  const failed = report.cases.filter((c) => c.outcome === "fail");
  if (report.diagnosis.length > 0) lines.push("", "Diagnosis:", ...report.diagnosis.map((d) => `  ${d}`));
  lines.push(
    "",
    failed.length === 0
      ? "Result: the receiver answers every case as it should."
      : `Result: ${failed.length} of ${report.cases.length} cases fail (${[...new Set(failed.map((c) => c.rule))].join(", ")}).`,
    "",
  );
  return lines.join("\n");
}

/** JUnit XML: one suite, one case per battery case; notes go to system-out. */
export function junitNotifyReport(report: NotifyReport, rules: ConsumerRules): string {
  const suite: JunitSuite = {
    name: "notify",
    properties: { to: report.to },
    cases: report.cases
      .filter((c) => c.outcome !== "note")
      .map((c) => ({
        classname: `assopay.notify.${c.rule}`,
        name: c.id,
        ...(c.outcome === "fail"
          ? {
              failure: {
                type: c.rule,
                message: c.reason,
                text: `${c.title}\n${c.reason}\nfix: ${rules.byId(c.rule).fix}`,
              },
            }
          : {}),
      })),
    systemOut: [
      ...report.cases.filter((c) => c.outcome === "note").map((c) => `${c.id}: ${c.reason}`),
      ...report.diagnosis,
    ].join("\n"),
  };
  return junitXml(`assopay notify: ${report.to}`, [suite]);
}

export function formatNotifyReport(
  report: NotifyReport,
  rules: ConsumerRules,
  reporter: ReporterName,
): string {
  switch (reporter) {
    case "pretty":
      return prettyNotifyReport(report, rules);
    case "json":
      return `${JSON.stringify({ tool: "assopay notify", ...report }, null, 2)}\n`;
    case "junit":
      return junitNotifyReport(report, rules);
  }
}
