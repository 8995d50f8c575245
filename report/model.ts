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
  readonly firstId?: number;
  readonly lastId?: number;
  /** The token sent to get the page. */
  readonly sentToken?: string;
  /** The token the page gave. */
  readonly token?: string;
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

/** One check (verify), one rule in one scenario (gate) or one case (notify). */
export interface ReportCase {
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
}

/** A group of cases: a check group (verify), a scenario (gate), the battery (notify). */
export interface ReportSuite {
  readonly name: string;
  /** Lines shown above the suite's cases in the pretty report (none: the cases stand alone). */
  readonly heading?: readonly string[];
  readonly properties: Readonly<Record<string, string>>;
  readonly cases: readonly ReportCase[];
  /** Notes and advice shown with the suite, never a failure. */
  readonly notes: readonly string[];
  readonly durationMs?: number;
  /** When the suite started (ISO 8601). */
  readonly timestamp?: string;
}

export type ReportTool =
  | "assopay verify"
  | "assopay gate"
  | "assopay notify"
  | "assopay drift"
  | "assopay lint";

/** Counts of cases by verdict. */
export type ReportSummary = Readonly<Record<Verdict, number>>;

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
export function casesOf(report: Report): { suite: ReportSuite; item: ReportCase }[] {
  return report.suites.flatMap((suite) => suite.cases.map((item) => ({ suite, item })));
}
