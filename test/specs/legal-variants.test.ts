import { describe, expect, it } from "vitest";
import { LEGAL_CASES, LEGAL_DATES } from "./support/coverage-plan.js";
import { contract, problems, verifySandbox } from "./support/harness.js";
import { startTransformingProxy, type TransformingProxy } from "./support/transforming-proxy.js";

describe("verify raises no false alarm on legal variations", () => {
  it.each(LEGAL_CASES)("%s", async (_, variants) => {
    for (const at of LEGAL_DATES) {
      let proxy: TransformingProxy | undefined;
      const report = await verifySandbox(at, {
        through: async (sandbox) => {
          proxy = await startTransformingProxy(sandbox.url, contract(), variants);
          return proxy;
        },
      });
      expect(problems(report), `at ${at}`).toEqual([]);
      const stats = proxy?.stats;
      if (!variants.noTokenOnLastPage) expect(stats?.finalPages).toBeGreaterThan(0);
      if (variants.gzip) expect(stats?.gzipped).toBeGreaterThan(0);
      if (variants.weirdTokens) expect(stats?.weirdTokens).toBeGreaterThan(0);
      if (variants.varyPageSizes) expect(stats?.splitPages).toBeGreaterThan(0);
      if (variants.noTokenOnLastPage) expect(stats?.droppedLastTokens).toBeGreaterThan(0);
    }
  });
});
