import {
  type PrettyOptions,
  type Report,
  type ReporterName,
  type ReportRule,
  type ReportSuite,
  writeReport,
} from "../../report/index.js";
import { CHECK_GROUPS, exitCodeOf, type RunReport } from "../runner/types.js";

/** The first line of verify's report: the target, the date and the planned-change policy. */
export function verifyHeader(report: Pick<RunReport, "target" | "embedded" | "at" | "planned">): string {
  const where = report.embedded ? `the embedded sandbox at ${report.target}` : report.target;
  return `assopay verify: ${where}, as of ${report.at} (planned changes: ${report.planned})`;
}

/**
 * A verify run as the shared report model: one suite per check group, one case per check; `rules` (the
 * contract's) let the HTML report link each case to its rule's seed section.
 */
export function verifyReport(run: RunReport, rules?: readonly ReportRule[]): Report {
  const suites: ReportSuite[] = CHECK_GROUPS.map((group) => run.outcomes.filter((f) => f.group === group))
    .filter((findings) => findings.length > 0)
    .map((findings) => ({
      name: `assopay verify: ${findings[0]?.group ?? ""}`,
      properties: { target: run.target, at: run.at },
      cases: findings,
      notes: [],
      durationMs: findings.reduce((total, f) => total + (f.durationMs ?? 0), 0),
      timestamp: run.startedAt,
    }));
  const where = run.embedded ? `the embedded sandbox (${run.target})` : run.target;
  return {
    tool: "assopay verify",
    name: "assopay verify",
    header: verifyHeader(run),
    result: `${where} as of ${run.at} in ${(run.durationMs / 1000).toFixed(1)} s`,
    passed: exitCodeOf(run.summary) === 0,
    suites,
    durationMs: run.durationMs,
    ...(rules ? { rules } : {}),
  };
}

/** The whole verify report in a format; the JSON keeps verify's own fields (`outcomes`, `target` …). */
export function formatReport(
  run: RunReport,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
  rules?: readonly ReportRule[],
): string {
  return writeReport(verifyReport(run, rules), reporter, options, { ...run });
}
