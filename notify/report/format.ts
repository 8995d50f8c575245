import type { ConsumerRules } from "../../contracts/consumer-rules.js";
import {
  type PrettyOptions,
  type Report,
  type ReportCase,
  type ReporterName,
  type Verdict,
  writeReport,
} from "../../report/index.js";
import type { CaseOutcome, CaseVerdict, NotifyReport } from "../verdict.js";

/** A note reports what an advice case saw: shown as a warning, never a failure. */
const VERDICT: Readonly<Record<CaseOutcome, Verdict>> = { pass: "pass", fail: "fail", note: "warn" };

function notifyCase(c: CaseVerdict, rules: ConsumerRules): ReportCase {
  return {
    id: c.id,
    rule: c.rule,
    group: c.rule,
    verdict: VERDICT[c.outcome],
    reason: c.reason,
    ...(c.outcome === "fail" ? { fix: rules.byId(c.rule).fix } : {}),
  };
}

/** A notify run as the shared report model: one suite, one case per battery case; notes and diagnosis as notes. */
export function notifyReportModel(report: NotifyReport, rules: ConsumerRules): Report {
  const failed = report.cases.filter((c) => c.outcome === "fail");
  return {
    tool: "assopay notify",
    name: `assopay notify: ${report.to}`,
    header: `assopay notify: ${report.cases.length} cases sent to ${report.to}`,
    result:
      failed.length === 0
        ? "Result: the receiver answers every case as it should."
        : `Result: ${failed.length} of ${report.cases.length} cases fail (${[...new Set(failed.map((c) => c.rule))].join(", ")}).`,
    passed: report.passed,
    suites: [
      {
        name: "notify",
        properties: { to: report.to },
        cases: report.cases.map((c) => notifyCase(c, rules)),
        notes: [
          ...report.cases.filter((c) => c.outcome === "note").map((c) => `${c.id}: ${c.reason}`),
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
