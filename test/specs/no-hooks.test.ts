import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { allChecks } from "../../specs/index.js";
import { CHECK_GROUPS } from "../../specs/runner/types.js";
import { ALL_LEGAL_VARIANTS, faultCases, NEEDS_MORE, UNDATED_FAULT_DATES } from "./support/coverage-plan.js";
import { contract, problems, verifySandbox } from "./support/harness.js";
import { startTransformingProxy } from "./support/transforming-proxy.js";

/** A provider without our hooks: no provider states, no clock, no admin endpoints. */
const NO_HOOKS = { hooks: false } as const;

/** Skips a date explains (the rule is not in force), which no provider capability could avoid. */
const DATED = /not in force on|does not exist yet on|are removed on|is switched off on/;

describe("verify against a provider without our hooks (no state URL, no clock)", () => {
  it("runs at least 21 of the checks (Pact included) on a clean provider, and skips only for a date or the clock", async () => {
    // Checks skipped for their date, at each date: none at both (the dates of the undated faults).
    const datedSkips: Set<string>[] = [];
    for (const at of UNDATED_FAULT_DATES) {
      // Pact included at one date (its verifier takes a few seconds): it answers the states itself.
      const only = at === "2025-04-01" ? { only: [...CHECK_GROUPS] } : {};
      // The matrix's one run over a socket, as the CLI's: the one with Pact, whose verifier is a child process.
      const report = await verifySandbox(at, {
        ...NO_HOOKS,
        socket: at === "2025-04-01",
        extra: { stateUrl: undefined, ...only },
      });
      expect(problems(report), `at ${at}`).toEqual([]);
      const skipped = report.outcomes.filter((o) => o.verdict === "skip");
      const unexplained = skipped.filter(
        (o) => !DATED.test(o.reason ?? "") && o.id !== "checkout/window-15-minutes",
      );
      expect(
        unexplained.map((o) => `${o.id}: ${o.reason}`),
        `at ${at}`,
      ).toEqual([]);
      datedSkips.push(new Set(skipped.filter((o) => DATED.test(o.reason ?? "")).map((o) => o.id)));
      if (at === "2025-04-01") {
        expect(report.outcomes).toHaveLength(allChecks().length);
        expect(report.outcomes.length - skipped.length).toBeGreaterThanOrEqual(21);
        expect(report.outcomes.find((o) => o.id === "pact/verify")?.reason).toMatch(
          /^\d+ interactions verified without provider states/,
        );
      }
    }
    const [first, last] = datedSkips;
    expect([...(first ?? [])].filter((id) => last?.has(id))).toEqual([]);
    expect(datedSkips.every((skips) => skips.size > 0)).toBe(true);
  });

  it.each(faultCases(contract().timeline).map((c) => [c.fault.name, c] as const))(
    "notices %s and blames it on the fault's rule only",
    async (_, { fault, dates }) => {
      const troubles: string[] = [];
      const needs = NEEDS_MORE[fault.name];
      let noticed = false;
      for (const at of dates) {
        const report = await verifySandbox(at, { ...NO_HOOKS, fault: fault.name });
        for (const outcome of report.outcomes) {
          const bad = outcome.verdict === "fail" || outcome.verdict === "error";
          if (bad && outcome.rule === fault.rule && outcome.verdict === "fail") {
            noticed = true;
            if (!outcome.evidence) troubles.push(`${outcome.id} fails without evidence`);
          } else if (bad) {
            troubles.push(`@${at}: blamed on ${outcome.id} (${outcome.rule}): ${outcome.reason}`);
          } else if (needs && outcome.id === needs.check && !needs.reason.test(outcome.reason ?? "")) {
            troubles.push(`@${at}: ${outcome.id} does not name what it needs: ${outcome.reason}`);
          }
        }
      }
      if (!noticed && !needs)
        troubles.push(`${fault.rule} went unnoticed without hooks (one only hooks show: in NEEDS_MORE)`);
      if (noticed && needs) troubles.push("caught without hooks: take it out of NEEDS_MORE");
      expect(troubles).toEqual([]);
    },
  );

  it("raises no alarm on the legal variations", async () => {
    for (const at of ["2025-04-01", "2026-01-01"] as IsoDay[]) {
      const report = await verifySandbox(at, {
        ...NO_HOOKS,
        through: (sandbox) =>
          startTransformingProxy(sandbox.url, contract(), { ...ALL_LEGAL_VARIANTS, finalToken: "fresh" }),
      });
      expect(problems(report), `at ${at}`).toEqual([]);
    }
  });
});
