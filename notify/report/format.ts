import type { ConsumerRules } from "../../contracts/consumer-rules.js";
import { type PrettyOptions, type Report, type ReporterName, writeReport } from "../../report/index.js";
import type { NotifyReport } from "../run.js";

/** A notify run as the shared report model: one suite, one case per battery case; notes and diagnosis as notes. */
export function notifyReportModel(report: NotifyReport, rules: ConsumerRules): Report {
  const failed = report.cases.filter((c) => c.verdict === "fail");
  return {
    tool: "assopay notify",
    name: `assopay notify: ${report.to}`,
    header: `assopay notify: ${report.cases.length} cases sent to ${report.to}`,
    result:
      failed.length === 0
        ? "Result: the receiver answers every case as it should."
        : `Result: ${failed.length} of ${report.cases.length} cases fail (${[...new Set(failed.map((c) => c.rule))].join(", ")}).`,
    passed: report.passed,
    rules: rules.all.filter((rule) => rule.applies === "notify"),
    suites: [
      {
        name: "notify",
        properties: { to: report.to },
        cases: report.cases,
        notes: [
          ...report.cases.filter((c) => c.verdict === "warn").map((c) => `${c.id}: ${c.reason}`),
          ...report.diagnosis,
        ],
      },
    ],
  };
}

/** Writes a notify report the chosen way; the JSON keeps notify's own `cases` and `diagnosis`. */
export function formatNotifyReport(
  report: NotifyReport,
  rules: ConsumerRules,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
): string {
  return writeReport(notifyReportModel(report, rules), reporter, options, { ...report });
}
