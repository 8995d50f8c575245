import { type Contract, ruleStartOf, type TimelineDate } from "../../contracts/index.js";
import {
  datedSuites,
  type MatrixBasis,
  type PrettyOptions,
  type Report,
  type ReporterName,
  timelineMatrix,
  writeReport,
} from "../../report/index.js";
import { exitCodeOf, type RunReport } from "../runner/types.js";
import { verifyReport } from "./index.js";

/** One date of a verify run across dates. */
export interface DatedRun {
  readonly date: TimelineDate;
  readonly run: RunReport;
}

/** How a verify run across dates was made: its basis and the sentence that says what was shared. */
export interface TimelineBasis {
  readonly basis: MatrixBasis;
  readonly note: string;
}

/**
 * A verify run across dates as one report: every date's suites (named with the date), and the matrix of
 * checks × dates (a check not run at a date is a skip; a dated rule before its date is "not yet in force").
 */
export function verifyTimelineReport(
  runs: readonly DatedRun[],
  how: TimelineBasis,
  contract: Pick<Contract, "rules" | "timeline">,
): Report {
  const dated = runs.map(({ date, run }) => ({ date, report: verifyReport(run) }));
  const first = runs[0]?.run;
  const where = first?.embedded ? "the embedded sandbox" : (first?.target ?? "");
  const failing = runs.filter(({ run }) => exitCodeOf(run.summary) !== 0).map(({ date }) => date.day);
  const durationMs = runs.reduce((n, { run }) => n + run.durationMs, 0);
  return {
    tool: "assopay verify",
    name: "assopay verify",
    header: `assopay verify: ${where}, at ${runs.length} dates (planned changes: ${first?.planned ?? "fail"})`,
    result:
      failing.length === 0
        ? `${where}: every rule holds at ${runs.length} dates, in ${(durationMs / 1000).toFixed(1)} s`
        : `${where}: a rule is broken at ${failing.join(", ")}`,
    passed: failing.length === 0,
    suites: datedSuites(dated),
    durationMs,
    matrix: timelineMatrix({
      runs: dated,
      basis: how.basis,
      note: how.note,
      rowOf: (item) => item.id,
      absent: { cell: "skip", reason: "not run at this date" },
      startOf: ruleStartOf(contract.timeline, contract.rules),
    }),
    rules: contract.rules,
  };
}

/** The report written the chosen way; the JSON keeps each date's own fields under `runs`. */
export function formatTimelineReport(
  runs: readonly DatedRun[],
  how: TimelineBasis,
  contract: Pick<Contract, "rules" | "timeline">,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
): string {
  const first = runs[0]?.run;
  return writeReport(verifyTimelineReport(runs, how, contract), reporter, options, {
    ...(first ? { target: first.target, embedded: first.embedded, planned: first.planned } : {}),
    runs: runs.map(({ run }) => run),
  });
}
