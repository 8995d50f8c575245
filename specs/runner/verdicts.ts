import type { CheckContext } from "./context.js";
import type { Check, CheckGroup, CheckResult, Evidence } from "./types.js";

/** A check of this runner: it reads the run's context. */
export type SpecCheck = Check<CheckContext>;

/** A check, its group read off its id (`<group>/<name>`, the group one of `CHECK_GROUPS`). */
export const specCheck = (
  check: Omit<SpecCheck, "group"> & { id: `${CheckGroup}/${string}` },
): SpecCheck => ({
  ...check,
  group: check.id.slice(0, check.id.indexOf("/")) as CheckGroup,
});

export function pass(reason: string, timeline?: readonly string[]): CheckResult {
  return timeline && timeline.length > 0
    ? { verdict: "pass", reason, timeline }
    : { verdict: "pass", reason };
}

export function skip(reason: string): CheckResult {
  return { verdict: "skip", reason };
}

export function fail(reason: string, evidence?: Evidence, timeline?: readonly string[]): CheckResult {
  const result: CheckResult = evidence ? { verdict: "fail", reason, evidence } : { verdict: "fail", reason };
  return timeline && timeline.length > 0 ? { ...result, timeline } : result;
}

/** A check's result on one subject (a route, a notification, a file); a pass's reason is a note. */
export type SubjectFinding = { readonly subject: string } & (
  | { readonly verdict: "pass"; readonly reason?: string }
  | ({ readonly verdict: "fail" } & Pick<CheckResult, "reason" | "evidence">)
  | ({ readonly verdict: "skip" } & Pick<CheckResult, "reason">)
);

/** A subject's pass (its reason a note), skip or fail: what `pass`, `skip` and `fail` are to a check. */
export const passOn = (subject: string, reason?: string): SubjectFinding => ({
  verdict: "pass",
  subject,
  reason,
});
export const skipOn = (subject: string, reason: string): SubjectFinding => ({
  verdict: "skip",
  subject,
  reason,
});
export const failOn = (subject: string, reason: string, evidence?: Evidence): SubjectFinding => ({
  verdict: "fail",
  subject,
  reason,
  evidence,
});

/**
 * One verdict from many findings: fail if any subject failed (evidence of the first, the others
 * listed), pass if at least one passed, skip when every subject was skipped.
 */
export function combine(
  findings: readonly SubjectFinding[],
  what: string,
  timeline?: readonly string[],
): CheckResult {
  const failures = findings.filter((f) => f.verdict === "fail");
  const passes = findings.filter((f) => f.verdict === "pass");
  const skips = findings.filter((f) => f.verdict === "skip");
  const first = failures[0];
  if (first) {
    const others = failures.slice(1).map((f) => `${f.subject}: ${f.reason}`);
    return fail(
      `${first.subject}: ${first.reason}${failures.length > 1 ? ` (and ${failures.length - 1} more)` : ""}`,
      first.evidence
        ? { ...first.evidence, diagnostics: [...(first.evidence.diagnostics ?? []), ...others] }
        : undefined,
      timeline,
    );
  }
  if (passes.length === 0) {
    const reasons = [...new Set(skips.map((s) => s.reason))];
    return skip(reasons.length > 0 ? reasons.join("; ") : `nothing to check for ${what}`);
  }
  const skipped =
    skips.length > 0 ? `; ${skips.length} skipped (${skips[0]?.subject}: ${skips[0]?.reason})` : "";
  const notes = passes.map((p) => p.reason).filter((n): n is string => n !== undefined);
  const detail = notes.length > 0 && notes.length <= 3 ? ` (${notes.join("; ")})` : "";
  return pass(`${passes.length} ${what}${detail}${skipped}`, timeline);
}
