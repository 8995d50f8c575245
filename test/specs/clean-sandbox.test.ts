import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { allChecks } from "../../specs/index.js";
import { CHECK_GROUPS } from "../../specs/runner/types.js";
import { contract, DATES, problems, verifySandbox } from "./support/harness.js";

/** Checks that have nothing to judge at a date (their rule is not in force yet, or no longer). */
function expectedSkips(at: IsoDay): string[] {
  const inForce = (effect: Parameters<ReturnType<typeof contract>["timeline"]["inForce"]>[0]) =>
    contract().timeline.inForce(effect, at);
  const removed = inForce("count-fields-removed");
  const skips: string[] = [];
  if (!inForce("withcount-introduced") || removed) skips.push("counts/minus-one-without-withcount");
  // counts/real-with-withcount judges at every date: after the removal, the totals of the listings the
  // deprecation leaves alone (an organization's forms, the partner's organizations).
  if (!removed) skips.push("counts/absent-after-removal");
  skips.push(inForce("v3-switch-off") ? "versions/v3-served-before-switch-off" : "versions/v3-switched-off");
  return skips.sort();
}

describe("verify against the clean sandbox, Pact included", () => {
  it.each(DATES)("every check passes at %s (skips only where the rule is not in force)", async (at) => {
    const report = await verifySandbox(at, { extra: { only: [...CHECK_GROUPS] } });
    expect(problems(report)).toEqual([]);
    const skipped = report.outcomes
      .filter((o) => o.verdict === "skip")
      .map((o) => o.id)
      .sort();
    expect(skipped).toEqual(expectedSkips(at));
    for (const outcome of report.outcomes.filter((o) => o.verdict === "skip")) {
      expect(outcome.reason, outcome.id).toMatch(
        /not in force|does not exist yet|removed on|switched off on/,
      );
    }
    expect(report.outcomes.length).toBe(allChecks().length);
    expect(report.outcomes.find((o) => o.id === "pact/verify")?.reason).toMatch(
      /^\d+ interactions verified$/,
    );
    // The Pact check walks every listing (about 65 interactions an era, three provider states each).
  });
});
