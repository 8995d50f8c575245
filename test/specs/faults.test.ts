import { describe, expect, it } from "vitest";
import { suitePass } from "../support/suite-pass.js";
import { faultCases, runsOnPass } from "./support/coverage-plan.js";
import { contract, verifySandbox } from "./support/harness.js";

/**
 * Each fault is tried at the dates its rule depends on (`faultCases`, from the timeline; counted per rule
 * by coverage-count.test.ts). The Pact check is left out: it judges whole interactions (its rule is
 * schema.responses) and has its own tests. On `.ci/run`'s Node 24 pass, only the faults the no-hooks
 * matrix cannot catch run here (`runsOnPass`).
 */
describe("verify against every sandbox fault", () => {
  const rules = new Set(contract().rules.map((r) => r.id));
  const pass = suitePass();

  const cases = faultCases(contract().timeline);
  it.each(cases.map((c) => [c.fault.name, c] as const).filter(([name]) => runsOnPass(name, pass)))(
    "notices %s and blames it on the fault's rule only",
    async (_, { fault, dates }) => {
      expect(rules.has(fault.rule), `${fault.name} names an unknown rule ${fault.rule}`).toBe(true);
      const troubles: string[] = [];
      let noticed = false;
      for (const at of dates) {
        // In-process, but for one run of the matrix, which goes over a socket as the CLI's do.
        const socket = fault === cases[0]?.fault && at === dates[0];
        const report = await verifySandbox(at, { fault: fault.name, socket });
        const failed = report.outcomes.filter((o) => o.verdict === "fail" || o.verdict === "error");
        for (const outcome of failed) {
          if (outcome.rule === fault.rule && outcome.verdict === "fail") {
            noticed = true;
            expect(outcome.evidence, `${fault.name}: ${outcome.id} fails without evidence`).toBeDefined();
          } else {
            troubles.push(`@${at}: blamed on ${outcome.id} (${outcome.rule}): ${outcome.reason ?? ""}`);
          }
        }
      }
      if (!noticed) troubles.push(`${fault.rule} went unnoticed at ${dates.join(", ")}`);
      expect(troubles).toEqual([]);
    },
  );
});
