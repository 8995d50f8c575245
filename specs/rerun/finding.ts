import type { DatedChange, DatedRules, Route, Timeline } from "../../contracts/index.js";
import type { Finding } from "../../report/index.js";
import { allChecks } from "../index.js";
import type { HttpExchange } from "../runner/http.js";
import { applyPlanned } from "../runner/run.js";
import type { Evidence, EvidenceRequest, PlannedPolicy } from "../runner/types.js";
import type { RerunStep } from "./steps.js";

/** A recorded exchange and the target's answer to the same request, parsed once. */
export interface Exchange {
  step: RerunStep;
  route: Route | undefined;
  /** The rules at `--at` for the route. */
  rules: DatedRules | undefined;
  recorded: { status: number; body: unknown };
  target: HttpExchange;
  /** The target's body as JSON, `undefined` when it is not JSON. */
  targetBody: unknown;
  /** The query sent to the target. */
  query: URLSearchParams;
  /** True when the path sent is the recorded one (no id replaced): the same resource as recorded. */
  sameResource: boolean;
}

/** `dated change count-fields-removed (2025-05-05, planned): …`. */
export function describeDated(change: DatedChange): string {
  const { entry } = change;
  const when = `${entry.date}${entry.approximate ? " approx." : ""}${entry.status === "planned" ? ", planned" : ""}`;
  const side = change.inForce ? "" : "not yet in force at --at; ";
  return `dated change ${entry.id} (${when}): ${side}${change.what}`;
}

/** A finding filed on `step`, on `rule`. */
function findingOn(
  step: RerunStep,
  rule: string,
  found: Pick<Finding, "verdict" | "reason" | "evidence" | "downgraded">,
  durationMs = 0,
): Finding {
  const title = `Re-sent request holds against the target: ${step.match?.route.summary ?? "a route outside the contract (status and structure only)"}`;
  // The group of the check that owns the rule in a verify run, so reporters file reruns beside it.
  const group = allChecks().find((check) => check.rule === rule)?.group ?? "schemas";
  return { id: step.id, group, rule, title, ...found, durationMs };
}

/** A failure of a whole crawl, filed on the crawl's last step (`#12 (crawl)`). */
export function crawlFinding(step: RerunStep, rule: string, reason: string, evidence: Evidence): Finding {
  return { ...findingOn(step, rule, { verdict: "fail", reason, evidence }), id: `${step.id} (crawl)` };
}

/** An interaction not judged: skipped (it could not be sent), or an error (no answer, or left unrun). */
export function unjudgedFinding(step: RerunStep, verdict: "skip" | "error", reason: string, durationMs = 0) {
  return findingOn(step, "schema.responses", { verdict, reason }, durationMs);
}

/**
 * What judging `step` found, nothing yet: its breaches are findings filed on the step, downgraded by
 * `policy` where they rest only on planned entries of `timeline`.
 */
export function emptyJudgement(step: RerunStep, policy: PlannedPolicy, timeline: Timeline) {
  const breaches: Finding[] = [];
  return {
    /** The rules the answer breaks, each a finding filed on its step; the first is the step's verdict. */
    breaches: breaches as readonly Finding[],
    dated: [] as DatedChange[],
    /** JSON paths whose difference from the recording a dated change explains (`pagination.totalCount`). */
    explained: [] as string[],
    /** Differences of status that no rule owns. */
    differences: [] as string[],
    /** Anything else worth a word in the reason. */
    notes: [] as string[],
    /**
     * Files a breach of `rule`: a failure, or a warning under `--planned warn` when it rests only on
     * planned timeline entries (`rests`).
     */
    fail(rule: string, reason: string, evidence: Evidence, rests: readonly string[] = []): void {
      const {
        verdict,
        reason: why,
        downgraded,
      } = applyPlanned({ verdict: "fail", reason, evidence, timeline: rests }, policy, timeline);
      breaches.push(
        findingOn(step, rule, { verdict, reason: why, evidence, ...(downgraded ? { downgraded } : {}) }),
      );
    },
  };
}

/** What judging one exchange found. */
export type Judgement = ReturnType<typeof emptyJudgement>;

/**
 * One finding per interaction: the first rule broken (the others listed with it), else a pass that
 * names the dated changes and the plain differences of structure from the recording.
 */
export function stepFinding(
  step: RerunStep,
  request: EvidenceRequest,
  judgement: Judgement,
  shape: readonly string[],
  durationMs: number,
): Finding {
  const [first, ...rest] = judgement.breaches;
  const dated = judgement.dated.map(describeDated);
  const differences = [...judgement.differences, ...shape];
  const context = [...dated, ...differences.map((d) => `structure: ${d}`)];
  if (first) {
    const others = rest.map((b) => `also ${b.rule}: ${b.reason}`);
    return {
      ...first,
      reason: `${first.reason}${rest.length > 0 ? ` (and ${rest.length} more)` : ""}`,
      evidence: {
        ...first.evidence,
        diagnostics: [...(first.evidence?.diagnostics ?? []), ...others, ...context],
      },
      durationMs,
    };
  }
  const parts: string[] = [];
  if (dated.length > 0) parts.push(dated.join("; "));
  if (differences.length > 0) {
    const shown = differences.slice(0, 3).join("; ");
    parts.push(
      `structure differs from the recording: ${shown}${differences.length > 3 ? ` (and ${differences.length - 3} more)` : ""}`,
    );
  }
  parts.push(...judgement.notes);
  const reason = parts.length > 0 ? parts.join("; ") : "holds, same structure as recorded";
  const rule = judgement.dated[0]?.rule ?? "schema.responses";
  const evidence = context.length > 0 ? { request, diagnostics: context } : { request };
  return findingOn(step, rule, { verdict: "pass", reason, evidence }, durationMs);
}
