/**
 * The one result type of every verb, and the words it is made of: a `Finding` is what the judge of a rule
 * found of one subject (rule, subject, verdict, reason, evidence). It lives in core/ so that contracts/'
 * judges and every verb build it where they judge; report/ writes it as it is.
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

/** Where two documents differ (drift; what each side says is the finding's reason). */
export interface EvidenceDifference {
  /** `GET /v5/payments/{paymentId}` (the `before` side's spelling when it has one). */
  readonly operation: string;
  /** The parameter or field (`payer.email`, `data[].state`); empty for an operation. */
  readonly subject: string;
  /** The known divergence or left-out operation that explains it (`contracts/divergences.yaml`). */
  readonly explainedBy?: { readonly id: string; readonly reason: string };
}

/** What a verdict rests on: the request, the response part at fault, and lines of diagnostics. */
export interface Evidence {
  readonly request?: EvidenceRequest;
  readonly response?: EvidenceResponse;
  readonly diagnostics?: readonly string[];
  /** The crawl that shows it, for a failure of a whole crawl. */
  readonly crawl?: EvidenceCrawl;
  /** The difference that shows it, for a drift between two documents. */
  readonly difference?: EvidenceDifference;
}

/**
 * The one result type of every verb: what the judge of a rule found of one subject (a check of verify, a
 * recorded interaction of `verify --cassette` and lint, a rule in one scenario of gate, a case of
 * notify, a difference of drift). Verbs build it where they judge; report/ writes it as it is.
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
  readonly evidence?: Evidence;
  /** What to do instead, for a failure. */
  readonly fix?: string;
  readonly durationMs?: number;
  /** True when a failure became a warning because it rests only on planned timeline entries. */
  readonly downgraded?: boolean;
}

/** Counts of findings by verdict. */
export type VerdictCounts = Readonly<Record<Verdict, number>>;

/** The number of each verdict among `verdicts`, every verdict named (0 when absent). */
export function countVerdicts(verdicts: Iterable<Verdict>): VerdictCounts {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
  for (const verdict of verdicts) counts[verdict] += 1;
  return counts;
}
