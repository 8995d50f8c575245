import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { applyPlanned, runVerify } from "../../specs/runner/run.js";
import { selectChecks } from "../../specs/runner/select.js";
import { CHECK_GROUPS } from "../../specs/runner/types.js";
import type { SpecCheck } from "../../specs/runner/verdicts.js";
import { contract, sandboxInput } from "./support/harness.js";

describe("the checks", () => {
  it("cover every rule of contracts/rules.yaml, each check naming a known rule", () => {
    const rules = contract().rules.map((r) => r.id);
    const named = new Set(allChecks().map((c) => c.rule));
    for (const check of allChecks()) expect(rules, check.id).toContain(check.rule);
    expect(rules.filter((r) => !named.has(r))).toEqual([]);
  });

  it("have unique ids, prefixed by their group, in group order", () => {
    const ids = allChecks().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of allChecks()) expect(check.id.startsWith(`${check.group}/`)).toBe(true);
    const order = allChecks().map((c) => CHECK_GROUPS.indexOf(c.group));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("are selected by group or by id with --only", () => {
    expect(selectChecks(allChecks(), ["counts"]).map((c) => c.id)).toEqual([
      "counts/minus-one-without-withcount",
      "counts/real-with-withcount",
      "counts/absent-after-removal",
    ]);
    expect(selectChecks(allChecks(), ["versions/v5-unaffected,pact"]).map((c) => c.id)).toEqual([
      "versions/v5-unaffected",
      "pact/verify",
    ]);
    expect(() => selectChecks(allChecks(), ["nope"])).toThrow(/no group or check named "nope"/);
  });
});

describe("the run loop", () => {
  it("reports a check that throws as an error verdict and goes on", async () => {
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 10,
      contract: contract(),
    });
    try {
      const boom: SpecCheck = {
        id: "schemas/boom",
        group: "schemas",
        rule: "schema.responses",
        title: "throws",
        run: async () => {
          throw new Error("kaboom");
        },
      };
      const fine: SpecCheck = {
        ...boom,
        id: "schemas/fine",
        run: async () => ({ verdict: "pass", reason: "ok" }),
      };
      const options = resolveOptions(sandboxInput(sandbox, "2025-04-01" as IsoDay, { only: [] }));
      const report = await runVerify(options, [boom, fine], { contract: contract() });
      expect(report.outcomes.map((o) => [o.id, o.verdict])).toEqual([
        ["schemas/boom", "error"],
        ["schemas/fine", "pass"],
      ]);
      expect(report.outcomes[0]?.reason).toMatch(/kaboom/);
      expect(report.summary).toEqual({ pass: 1, fail: 0, skip: 0, warn: 0, error: 1 });
    } finally {
      await sandbox.close();
    }
  });

  it("downgrades a failure to a warning only when every timeline entry behind it is planned", () => {
    const timeline = contract().timeline;
    const removal = timeline.entry("count-fields-removed")?.id ?? "";
    const flip = timeline.entry("withcount-default-false")?.id ?? "";
    const failed = { verdict: "fail" as const, reason: "counts still there", timeline: [removal] };
    expect(applyPlanned(failed, "warn", timeline)).toMatchObject({ verdict: "warn", downgraded: true });
    expect(applyPlanned(failed, "fail", timeline).verdict).toBe("fail");
    expect(applyPlanned({ ...failed, timeline: [removal, flip] }, "warn", timeline).verdict).toBe("fail");
    expect(applyPlanned({ verdict: "fail", reason: "no timeline" }, "warn", timeline).verdict).toBe("fail");
  });
});
