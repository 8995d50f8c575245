import { type Contract, ruleStartOf, type TimelineDate } from "../../contracts/index.js";
import { datedSuites, type Report, timelineMatrix } from "../../report/index.js";
import { loadSteps } from "../rerun/steps.js";
import { type LintResult, lintReport, lintSteps } from "./run.js";

/** One date of a lint across dates. */
export interface DatedLint {
  readonly date: TimelineDate;
  readonly result: LintResult;
}

/**
 * Lints cassettes at several dates: the cassettes are read and matched to routes once, then every
 * interaction is judged by each date's rules (a recording is one behaviour at a fixed date).
 *
 * @example
 * const runs = await lintAcrossDates(loadContract(), ["session.yaml"], timelineBoundaries(contract.timeline));
 */
export async function lintAcrossDates(
  contract: Contract,
  cassettes: readonly string[],
  dates: readonly TimelineDate[],
): Promise<DatedLint[]> {
  const { steps, notes } = await loadSteps(cassettes, contract);
  return dates.map((date) => ({
    date,
    result: { cassettes, at: date.day, interactions: lintSteps(steps, contract, date.day), notes },
  }));
}

/**
 * A lint across dates as one report: each date's suites, and a matrix of the rules broken at any date
 * × dates (a rule no interaction breaks at a date passes there; before a dated rule's start it is "not
 * yet in force").
 */
export function lintTimelineReport(runs: readonly DatedLint[], contract: Contract): Report {
  const dated = runs.map(({ date, result }) => ({ date, report: lintReport(result) }));
  const failures = dated.map(({ date, report }) => ({
    date,
    report: {
      ...report,
      suites: report.suites.map((s) => ({ ...s, cases: s.cases.filter((c) => c.verdict === "fail") })),
    },
  }));
  const failing = dated.filter(({ report }) => !report.passed).map(({ date }) => date.day);
  const count = runs[0]?.result.interactions.length ?? 0;
  return {
    tool: "assopay lint",
    name: `assopay lint: ${runs[0]?.result.cassettes.join(" ") ?? ""}`,
    header: `assopay lint: ${count} recorded interaction(s) judged by the contract at ${runs.length} dates`,
    result:
      failing.length === 0
        ? "Every recorded answer holds to the contract at every date."
        : `Recorded answers break a rule at ${failing.join(", ")}.`,
    passed: failing.length === 0,
    suites: datedSuites(dated),
    matrix: timelineMatrix({
      runs: failures,
      basis: "one-behaviour-each-date-rules",
      note: "The cassettes were read once; each date judges the same recorded answers by its own rules.",
      rowOf: (item) => item.rule,
      absent: { cell: "pass", reason: "no recorded answer breaks it at this date" },
      startOf: ruleStartOf(contract.timeline, contract.rules),
    }),
    rules: contract.rules,
  };
}
