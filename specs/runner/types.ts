import type { HttpMethod } from "../../contracts/index.js";

/** The groups of checks, in the order a run takes them. `--only` names groups (or check ids). */
export const CHECK_GROUPS = Object.freeze([
  "schemas",
  "pagination",
  "counts",
  "versions",
  "rights",
  "public-form",
  "notifications",
  "checkout",
  "pact",
] as const);

export type CheckGroup = (typeof CHECK_GROUPS)[number];

/** What a check may conclude. `warn` is a failure the user chose to tolerate (`--planned warn`). */
export type CheckStatus = "pass" | "fail" | "skip" | "warn";

/** What the report shows: a check's own status, or `error` when the check itself threw. */
export type Verdict = CheckStatus | "error";

export interface EvidenceRequest {
  method: HttpMethod;
  url: string;
  /** Request headers worth showing; credentials are masked. */
  headers?: Readonly<Record<string, string>>;
}

export interface EvidenceResponse {
  status: number;
  /** The offending part of the response (or its beginning), never the whole body. */
  excerpt: string;
}

/** One page of a crawl drawn as evidence. */
export interface EvidenceCrawlPage {
  index: number;
  url: string;
  status: number;
  entries: number;
  firstId?: number;
  lastId?: number;
  sentToken?: string;
  token?: string;
  /** The page where it went wrong. */
  offending?: boolean;
}

/** A crawl as evidence: its pages in order, the offending one marked, what was expected and what came. */
export interface EvidenceCrawl {
  label: string;
  pageSize?: number;
  pages: readonly EvidenceCrawlPage[];
  expected: string;
  actual: string;
}

/** What a failure points at: the request, the response part at fault, and validation sentences. */
export interface Evidence {
  request: EvidenceRequest;
  response?: EvidenceResponse;
  diagnostics?: readonly string[];
  /** The crawl that shows it, for a failure of a whole crawl. */
  crawl?: EvidenceCrawl;
}

export interface CheckResult {
  status: CheckStatus;
  reason?: string;
  evidence?: Evidence;
  /**
   * Ids of the timeline entries the expectation came from. A failure resting only on entries with
   * `status: planned` becomes a warning under `--planned warn`.
   */
  timeline?: readonly string[];
}

/** One executable check: data in, verdict out. It never throws for a provider's fault. */
export interface Check<Context = unknown> {
  id: string;
  group: CheckGroup;
  /** Id of the rule it enforces, from `contracts/rules.yaml`. */
  rule: string;
  title: string;
  run(ctx: Context): Promise<CheckResult>;
}

/** A check's verdict as reported. */
export interface CheckOutcome {
  id: string;
  group: CheckGroup;
  rule: string;
  title: string;
  verdict: Verdict;
  reason?: string;
  evidence?: Evidence;
  /** True when a failure became a warning because it rests only on planned timeline entries. */
  downgraded?: boolean;
  durationMs: number;
}

export interface RunSummary {
  pass: number;
  fail: number;
  skip: number;
  warn: number;
  error: number;
}

/** Everything a reporter needs. */
export interface RunReport {
  target: string;
  /** True when the target is the embedded sandbox. */
  embedded: boolean;
  at: string;
  planned: PlannedPolicy;
  startedAt: string;
  durationMs: number;
  outcomes: readonly CheckOutcome[];
  summary: RunSummary;
}

/** What to do with a failure resting only on a planned timeline entry. */
export type PlannedPolicy = "fail" | "warn";

/** The run's exit code: 0 when nothing failed (skips and warnings allowed), 1 otherwise. */
export function exitCodeOf(summary: RunSummary): 0 | 1 {
  return summary.fail > 0 || summary.error > 0 ? 1 : 0;
}
