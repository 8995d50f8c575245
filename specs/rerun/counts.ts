import type {
  CountMode,
  DatedRules,
  ExpectedCounts,
  PageCounts,
  Timeline,
  TimelineEffect,
} from "../../contracts/index.js";
import type { DatedChange } from "./types.js";

/** The count modes in the order the timeline brings them, and the entry that starts each. */
const ORDER: readonly CountMode[] = ["always-real", "default-true", "default-false", "absent"];
const STARTED_BY: Readonly<Partial<Record<CountMode, TimelineEffect>>> = {
  "default-true": "withcount-introduced",
  "default-false": "withcount-default-false",
  absent: "count-fields-removed",
};

type Seen = "real" | "minus-one" | "absent" | "other";

/** What a recorded page's counts were. */
export function countsSeen(counts: PageCounts | undefined): Seen {
  if (!counts || (counts.totalCount === undefined && counts.totalPages === undefined)) return "absent";
  if (counts.totalCount === -1 && counts.totalPages === -1) return "minus-one";
  const real = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 0;
  return real(counts.totalCount) && real(counts.totalPages) ? "real" : "other";
}

/** The modes in which a page with those counts, asked with that `withCount`, was legal. */
function modesFor(seen: Seen, withCount: boolean | undefined): CountMode[] {
  switch (seen) {
    case "real":
      return ORDER.filter(
        (m) =>
          m === "always-real" ||
          (m === "default-true" && withCount !== false) ||
          (m === "default-false" && withCount === true),
      );
    case "minus-one":
      return ORDER.filter(
        (m) => (m === "default-true" && withCount === false) || (m === "default-false" && withCount !== true),
      );
    case "absent":
      return ["absent"];
    case "other":
      return [];
  }
}

/** The timeline entry the counts expected at a date rest on: the one that began the count mode in force. */
export function countTimeline(rules: DatedRules, timeline: Timeline): string[] {
  const mode = rules.countMode;
  const effect = mode === "not-applicable" ? undefined : STARTED_BY[mode];
  const entry = effect ? timeline.entry(effect) : undefined;
  return entry ? [entry.id] : [];
}

/** The rule each expectation of counts belongs to. */
export function countRule(expected: ExpectedCounts): string {
  switch (expected) {
    case "minus-one":
      return "counts.minus-one-without-withcount";
    case "absent":
      return "counts.absent-after-removal";
    case "real":
    case "not-applicable":
      return "counts.real-with-withcount";
  }
}

function describe(seen: Seen, counts: PageCounts | undefined): string {
  return seen === "absent" ? "absent" : `${String(counts?.totalCount)} and ${String(counts?.totalPages)}`;
}

/**
 * The dated change that explains why the target's counts (legal at `--at`) differ from the recorded ones
 * (legal at another date), naming the timeline entry crossed; `undefined` when nothing changed or the
 * recording itself was not legal at any date.
 */
export function datedCountChange(
  rules: DatedRules,
  expected: ExpectedCounts,
  recorded: PageCounts | undefined,
  withCount: boolean | undefined,
  timeline: Timeline,
): DatedChange | undefined {
  const now = rules.countMode;
  if (now === "not-applicable") return undefined;
  const seen = countsSeen(recorded);
  const then = modesFor(seen, withCount);
  if (then.length === 0 || then.includes(now)) return undefined;
  const at = ORDER.indexOf(now);
  const nearest = [...then].sort(
    (a, b) => Math.abs(ORDER.indexOf(a) - at) - Math.abs(ORDER.indexOf(b) - at),
  )[0];
  if (nearest === undefined) return undefined;
  const inForce = ORDER.indexOf(nearest) < at;
  const effect = STARTED_BY[inForce ? now : (ORDER[at + 1] ?? now)];
  const entry = effect ? timeline.entry(effect) : undefined;
  if (!entry) return undefined;
  return {
    entry,
    rule: countRule(expected),
    inForce,
    what: `pagination.totalCount and totalPages: recorded ${describe(seen, recorded)}, now ${expected === "absent" ? "absent" : expected === "minus-one" ? "-1" : "real totals"}`,
  };
}
