import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { contract, problems, verifySandbox } from "./support/harness.js";
import {
  startTransformingProxy,
  type TransformingProxy,
  type Variants,
} from "./support/transforming-proxy.js";

const EVERYTHING: Variants = {
  weirdTokens: true,
  finalToken: "echo",
  noTokenOnLastPage: false,
  unknownFields: true,
  reoffsetDates: true,
  gzip: true,
  varyPageSizes: true,
};

const CASES: [string, Variants][] = [
  [
    "tokens full of + / = % & and spaces, echoed on the final empty page, unknown fields, +02:00 dates with 7 digits, gzip, short pages",
    EVERYTHING,
  ],
  ["no token on the final empty page", { ...EVERYTHING, finalToken: "none", varyPageSizes: false }],
  ["a fresh token on the final empty page", { ...EVERYTHING, finalToken: "fresh", gzip: false }],
  [
    "no token on the last non-empty page",
    { ...EVERYTHING, noTokenOnLastPage: true, weirdTokens: false, finalToken: "none" },
  ],
];

describe("verify raises no false alarm on legal variations", () => {
  it.each(CASES)(
    "%s",
    async (_, variants) => {
      for (const at of ["2025-04-01", "2026-01-01"] as IsoDay[]) {
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
    },
    60_000,
  );
});
