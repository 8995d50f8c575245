import type {
  EvidenceRequest,
  Finding,
  Evidence as FindingEvidence,
  Verdict,
  VerdictCounts,
} from "../../core/finding.js";

export type { EvidenceCrawl, EvidenceRequest, Verdict } from "../../core/finding.js";

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

/** What a check's failure points at: the report's evidence, always with the request it sent. */
export type Evidence = FindingEvidence & { readonly request: EvidenceRequest };

/**
 * What a check concludes: its `Finding` before the runner names it (id, group, rule, title, duration),
 * with the timeline entries the expectation came from (a failure resting only on `status: planned`
 * entries becomes a warning under `--planned warn`). Never `error`: only the runner gives it (the check
 * itself threw).
 */
export interface CheckResult extends Pick<Finding, "reason" | "downgraded"> {
  readonly verdict: Exclude<Verdict, "error">;
  readonly evidence?: Evidence;
  readonly timeline?: readonly string[];
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

/** Everything a reporter needs. */
export interface RunReport {
  target: string;
  /** True when the target is the embedded sandbox. */
  embedded: boolean;
  at: string;
  planned: PlannedPolicy;
  startedAt: string;
  durationMs: number;
  outcomes: readonly Finding[];
  summary: VerdictCounts;
}

/** What to do with a failure resting only on a planned timeline entry. */
export type PlannedPolicy = "fail" | "warn";

/** The run's exit code: 0 when nothing failed (skips and warnings allowed), 1 otherwise. */
export function exitCodeOf(summary: VerdictCounts): 0 | 1 {
  return summary.fail > 0 || summary.error > 0 ? 1 : 0;
}
