import type { Timeline, TimelineEntry } from "../../../contracts/index.js";
import type { IsoDay } from "../../../core/dates.js";
import { type FaultName, faults } from "../../../sandbox/index.js";
import type { SuitePass } from "../../support/suite-pass.js";
import type { Variants } from "./transforming-proxy.js";

/**
 * What `test/specs/faults.test.ts` and `test/specs/legal-variants.test.ts` run, in one place, so that
 * `test/specs/coverage-count.test.ts` counts what they prove per rule from the very lists they run.
 */

/** The dates a dated fault is verified at: on both sides of the count removal, the verification and the switch-off. */
export const FAULT_DATES = ["2025-04-01", "2025-06-15", "2026-01-01"] as IsoDay[];

/**
 * The dates of a fault whose rule no timeline entry dates: the two ends of `FAULT_DATES`. Every rule of
 * the contract is in force at one of them (no check skips for its date at both: the clean run without
 * hooks in no-hooks.test.ts asserts it), so a fault blamed on a rule other than its own shows at one of
 * the two.
 */
export const UNDATED_FAULT_DATES = ["2025-04-01", "2026-01-01"] as IsoDay[];

/** The group of rules (the id before its dot) whose verdicts each kind of timeline entry dates. */
function datedGroup(affects: TimelineEntry["affects"]): string {
  switch (affects) {
    case "count-deprecation":
      return "counts";
    case "v3":
      return "versions";
    case "associations":
      return "associations";
  }
}

/** One case per fault (one test each): its rule and the dates it is verified at. */
export interface FaultCase {
  fault: (typeof faults)[number];
  dates: readonly IsoDay[];
}

/**
 * Each fault at the dates its rule depends on, read from the timeline: a rule of a group some entry
 * affects (counts, versions, associations) at `FAULT_DATES`, any other at `UNDATED_FAULT_DATES`.
 */
export function faultCases(timeline: Timeline): readonly FaultCase[] {
  const dated = new Set(timeline.entries.map((entry) => datedGroup(entry.affects)));
  return faults.map((fault) => ({
    fault,
    dates: dated.has(fault.rule.split(".")[0] ?? "") ? FAULT_DATES : UNDATED_FAULT_DATES,
  }));
}

/**
 * Faults a provider without hooks (no state URL, no clock) cannot show to verify unless a flag names what
 * it needs: without hooks, each one's check skips with a reason naming that flag or capability
 * (test/specs/no-hooks.test.ts asserts the reason).
 */
export const NEEDS_MORE: Partial<Record<FaultName, { check: string; reason: RegExp }>> = {
  "short-checkout-window": { check: "checkout/window-15-minutes", reason: /movable clock/ },
  "unverified-payments": { check: "checkout/associations-verification", reason: /--unverified-org/ },
  "no-file-urls": { check: "rights/order-detail-exposes-files", reason: /--order-id/ },
};

/**
 * Whether `test/specs/faults.test.ts` runs a case on a pass of the suite: every case on the full pass. On
 * another Node (`.ci/run`'s Node 24 pass), only the faults a provider without hooks cannot show: the
 * no-hooks matrix runs on that pass too and catches every other fault at the same dates, through the
 * same Node modules (HTTP server and client, zlib, crypto); the hooks add provider states, whose own
 * paths the clean runs of that pass take (bench/history/test-durations.md).
 */
export function runsOnPass(fault: FaultName, pass: SuitePass): boolean {
  switch (pass) {
    case "full":
      return true;
    case "other-node":
      return NEEDS_MORE[fault] !== undefined;
  }
}

/** The dates every legal variant is verified at: before the withCount default flip, after the count removal. */
export const LEGAL_DATES = ["2025-04-01", "2026-01-01"] as IsoDay[];

/** Every legal variation at once (a token echoed on the final empty page); cases vary from it. */
export const ALL_LEGAL_VARIANTS: Variants = {
  weirdTokens: true,
  finalToken: "echo",
  noTokenOnLastPage: false,
  unknownFields: true,
  reoffsetDates: true,
  gzip: true,
  varyPageSizes: true,
};

/** The legal variations of a provider, each verified whole (every check, so every rule) at `LEGAL_DATES`. */
export const LEGAL_CASES: readonly [string, Variants][] = [
  [
    "tokens full of + / = % & and spaces, echoed on the final empty page, unknown fields, +02:00 dates with 7 digits, gzip, short pages",
    ALL_LEGAL_VARIANTS,
  ],
  ["no token on the final empty page", { ...ALL_LEGAL_VARIANTS, finalToken: "none", varyPageSizes: false }],
  ["a fresh token on the final empty page", { ...ALL_LEGAL_VARIANTS, finalToken: "fresh", gzip: false }],
  [
    "no token on the last non-empty page",
    { ...ALL_LEGAL_VARIANTS, noTokenOnLastPage: true, weirdTokens: false, finalToken: "none" },
  ],
];
