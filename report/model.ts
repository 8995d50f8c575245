/**
 * The one model of a report, shared by `assopay verify`, `gate` and `notify`: each verb maps its results
 * onto it and hands it to the writers of this folder (pretty, JSON, JUnit XML).
 */

/**
 * What a report says of one check or rule, in the order reports count them. `warn`: a failure the user
 * chose to tolerate; `error`: the check itself could not run (verify only).
 */
export const VERDICTS = Object.freeze(["pass", "fail", "warn", "skip", "error"] as const);

export type Verdict = (typeof VERDICTS)[number];

/** The request a verdict points at. */
export interface EvidenceRequest {
  readonly method: string;
  /** The URL (or request target) as sent. */
  readonly url: string;
  /** Headers worth showing; credentials masked. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Its arrival order among the requests judged (1-based), when that order matters. */
  readonly seq?: number;
}

/** The answer a verdict points at: its status and, when it helps, the offending part of its body. */
export interface EvidenceResponse {
  readonly status: number;
  readonly excerpt?: string;
}

/** One page of a crawl drawn as evidence: its request, entry count, edge ids and tokens. */
export interface EvidenceCrawlPage {
  readonly index: number;
  readonly url: string;
  readonly status: number;
  readonly entries: number;
  readonly firstId?: number | string;
  readonly lastId?: number | string;
  /**
   * The continuation token sent to get the page. (Not named `…token`: the report redactor takes values
   * under such names for secrets, and a continuation token is the evidence here.)
   */
  readonly tokenSent?: string;
  /** The continuation token the page gave. */
  readonly tokenGiven?: string;
  /** The page where the crawl went wrong. */
  readonly offending?: boolean;
}

/** A whole crawl as evidence (completeness failures): its pages, the offending one marked. */
export interface EvidenceCrawl {
  readonly label: string;
  readonly pageSize?: number;
  readonly pages: readonly EvidenceCrawlPage[];
  readonly expected: string;
  readonly actual: string;
}

/** What a verdict rests on: the request, the response part at fault, and lines of diagnostics. */
export interface ReportEvidence {
  readonly request?: EvidenceRequest;
  readonly response?: EvidenceResponse;
  readonly diagnostics?: readonly string[];
  /** The crawl that shows it, for a failure of a whole crawl. */
  readonly crawl?: EvidenceCrawl;
}

/**
 * The one result type of every verb: what the judge of a rule found of one subject (a check of verify, a
 * recorded interaction of `verify --cassette` and lint, a rule in one scenario of gate, a case of
 * notify, a class of drift). Verbs build it where they judge; report/ writes it as it is.
 */
export interface Finding {
  /** The check id, rule id or case id. */
  readonly id: string;
  /** A title for people; JUnit names the case `id: title` when there is one. */
  readonly title?: string;
  /** The id of the rule the case enforces. */
  readonly rule: string;
  /** What the case belongs to (check group, scenario, rule): JUnit's class name ends with it. */
  readonly group: string;
  readonly verdict: Verdict;
  /** One sentence: why this verdict. */
  readonly reason: string;
  readonly evidence?: ReportEvidence;
  /** What to do instead, for a failure. */
  readonly fix?: string;
  readonly durationMs?: number;
  /** True when a failure became a warning because it rests only on planned timeline entries. */
  readonly downgraded?: boolean;
}

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

/** Counts of cases by verdict. */
export type ReportSummary = Readonly<Record<Verdict, number>>;

/** What a cell of the timeline matrix says: a verdict, or that the rule was not yet in force that day. */
export const MATRIX_CELLS = Object.freeze(["pass", "fail", "warn", "skip", "error", "not-in-force"] as const);

export type MatrixCell = (typeof MATRIX_CELLS)[number];

/**
 * How each date of a timeline run was judged: on the provider's behaviour at that date (its clock was
 * set: the sandbox, or a target answering the `the service date` state), or on one behaviour (a
 * provider at a fixed date, a recording) judged by each date's rules.
 */
export const MATRIX_BASES = Object.freeze([
  "behaviour-at-each-date",
  "one-behaviour-each-date-rules",
] as const);

export type MatrixBasis = (typeof MATRIX_BASES)[number];

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

/** The number of each verdict among `verdicts`, every verdict named (0 when absent). */
export function countVerdicts(verdicts: Iterable<Verdict>): ReportSummary {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
  for (const verdict of verdicts) counts[verdict] += 1;
  return counts;
}

/** The number of cases of each verdict. */
export function summarize(suites: readonly ReportSuite[]): ReportSummary {
  return countVerdicts(suites.flatMap((suite) => suite.cases.map((c) => c.verdict)));
}

/** The cases of a report, in order, each with its suite. */
export function casesOf(report: Report): { suite: ReportSuite; item: Finding }[] {
  return report.suites.flatMap((suite) => suite.cases.map((item) => ({ suite, item })));
}
