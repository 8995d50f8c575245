import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { partialLastPageSize } from "../../specs/runner/crawl-query.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { byId, contract, sandboxInput } from "./support/harness.js";

/**
 * totalPages is judged on a crawl whose last page is partial: where the form's entries divide the default
 * page size (40 or 60 by 20), a provider rounding totalPages down gives the right number there, and only
 * another size shows it. At 2024-12-01 every crawl has real totals; at 2025-04-01 those with withCount=true.
 */
const DATES = ["2024-12-01", "2025-04-01"] as IsoDay[];

async function countsVerdict(at: IsoDay, hooks: boolean, fault?: "totals-floor") {
  // With states the form holds the 40 entries verify seeds; without, the 60 of the ready-made data.
  const sandbox = await startSandbox({
    port: 0,
    at,
    entries: 60,
    contract: contract(),
    hooks,
    ...(fault ? { fault } : {}),
  });
  try {
    const input = sandboxInput(sandbox, at, {
      only: ["counts"],
      seededEntries: 40,
      ...(hooks ? {} : { stateUrl: undefined }),
    });
    const report = await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
    return {
      outcome: byId(report, "counts/real-with-withcount"),
      others: report.outcomes.filter((o) => o.id !== "counts/real-with-withcount" && o.verdict === "fail"),
    };
  } finally {
    await sandbox.close();
  }
}

describe("totalPages at a page size the count does not divide", () => {
  it("asks for a size where the last page is partial only when the default's is full", () => {
    expect(partialLastPageSize(300, 20)).toBe(19);
    expect(partialLastPageSize(60, 20)).toBe(19);
    expect(partialLastPageSize(50, 20)).toBeUndefined();
    expect(partialLastPageSize(0, 20)).toBeUndefined();
    expect(partialLastPageSize(7, 20)).toBeUndefined();
  });

  it.each([
    ["with provider states", true],
    ["without hooks", false],
  ])(
    "flags totalPages rounded down on counts.real-with-withcount, and passes the sandbox's (%s)",
    async (_, hooks) => {
      for (const at of DATES) {
        const broken = await countsVerdict(at, hooks, "totals-floor");
        expect(broken.outcome?.verdict, `${at}: ${broken.outcome?.reason}`).toBe("fail");
        expect(broken.outcome?.reason).toMatch(/totalPages is \d+ but \d+ entries at pageSize 19 make \d+/);
        expect(broken.others.map((o) => o.id)).toEqual([]);
        const legal = await countsVerdict(at, hooks);
        expect(legal.outcome?.verdict, `${at}: ${legal.outcome?.reason}`).toBe("pass");
        expect(legal.others.map((o) => o.id)).toEqual([]);
      }
    },
  );
});
