/**
 * The one model of a report, shared by `assopay verify`, `gate`, `notify`, `lint` and `drift`: each verb
 * groups its findings into suites and hands them to the writers of this folder (pretty, compact, JSON,
 * JUnit XML, HTML). Its cases are the one result type, `Finding` (core/finding.ts), as the verbs built them.
 */
import { countVerdicts, type Finding, type Verdict, type VerdictCounts } from "../core/finding.js";

export * from "../core/finding.js";

/** One request of a suite's traffic (gate's scenarios): its order, request, answer and what it carried. */
export interface TrafficStep {
  readonly seq: number;
  readonly method: string;
  readonly url: string;
  /** Absent when the request never completed. */
  readonly status?: number;
  /** What the answer held or why the gate answered (`20 entries, a token`, `gate: unknown-token`). */
  readonly note?: string;
}

/** A group of cases: a check group (verify), a scenario (gate), the battery (notify). */
export interface ReportSuite {
  readonly name: string;
  /** Lines shown above the suite's cases in the pretty report (none: the cases stand alone). */
  readonly heading?: readonly string[];
  readonly properties: Readonly<Record<string, string>>;
  readonly cases: readonly Finding[];
  /** Notes and advice shown with the suite, never a failure. */
  readonly notes: readonly string[];
  readonly durationMs?: number;
  /** When the suite started (ISO 8601). */
  readonly timestamp?: string;
  /** Every request of the suite, in order: the HTML report draws it (the JSON report leaves it out). */
  readonly traffic?: readonly TrafficStep[];
}

export type ReportTool =
  | "assopay verify"
  | "assopay gate"
  | "assopay notify"
  | "assopay drift"
  | "assopay lint";

/** What a cell of the timeline matrix says: a verdict, or that the rule was not yet in force that day. */
export type MatrixCell = Verdict | "not-in-force";

/**
 * How each date of a timeline run was judged: on the provider's behaviour at that date (its clock was
 * set: the sandbox, or a target answering the `the service date` state), or on one behaviour (a
 * provider at a fixed date, a recording) judged by each date's rules.
 */
export type MatrixBasis = "behaviour-at-each-date" | "one-behaviour-each-date-rules";

/** One column of the matrix: a day, and why it is there (`day before v3-switch-off`, `today` …). */
export interface MatrixDate {
  readonly day: string;
  readonly label: string;
}

/** One row: a check (verify) or a rule (gate, lint), and its cell at each date, in the dates' order. */
export interface MatrixRow {
  readonly id: string;
  readonly rule: string;
  readonly cells: readonly { readonly cell: MatrixCell; readonly reason: string }[];
}

/** A timeline run's verdicts as one table, rules × dates. */
export interface ReportMatrix {
  readonly basis: MatrixBasis;
  /** One sentence for people: how the dates were judged, and what was shared between them. */
  readonly note: string;
  readonly dates: readonly MatrixDate[];
  readonly rows: readonly MatrixRow[];
}

/** A rule a report's cases enforce, as the contract states it: the HTML report links each case to it. */
export interface ReportRule {
  readonly id: string;
  /** The section of the seed (or reference fact) it comes from. */
  readonly seed: string;
  readonly summary: string;
}

/** A whole report. */
export interface Report {
  readonly tool: ReportTool;
  /** The report's name (the JUnit document's name), e.g. `assopay gate: node crawl.mjs`. */
  readonly name: string;
  /** The first line of the pretty report. */
  readonly header: string;
  /** The last sentence of the pretty report, after the counts. */
  readonly result: string;
  readonly passed: boolean;
  readonly suites: readonly ReportSuite[];
  readonly durationMs?: number;
  /** A run across several dates: its verdicts as rules × dates (its suites are each date's, in order). */
  readonly matrix?: ReportMatrix;
  /** The rules the cases enforce, for the HTML report's links (not part of the JSON report). */
  readonly rules?: readonly ReportRule[];
}

/** The number of cases of each verdict. */
export function summarize(suites: readonly ReportSuite[]): VerdictCounts {
  return countVerdicts(suites.flatMap((suite) => suite.cases.map((c) => c.verdict)));
}

/** The cases of a report, in order, each with its suite. */
export function casesOf(report: Report): { suite: ReportSuite; item: Finding }[] {
  return report.suites.flatMap((suite) => suite.cases.map((item) => ({ suite, item })));
}
