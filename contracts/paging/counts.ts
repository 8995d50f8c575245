/**
 * The one judge of the count rules (`counts.*`): which rule owns what a page's `totalCount` and
 * `totalPages` must be at a date (the schema judge, `judgeSchema`, finds the sentences), whether a crawl's
 * totals agree with what it counted, and which dated change explains counts that differ from a
 * recording's. verify's count checks, `verify --cassette` and lint all judge counts here.
 */
import type {
  CountMode,
  DatedRules,
  ExpectedCounts,
  Timeline,
  TimelineEffect,
  TimelineEntry,
} from "../types.js";
import type { PageCounts } from "./page.js";

/**
 * True for a schema sentence about a page's counts (`totalCount`, `totalPages`): the count rules own
 * those, whoever validated the page.
 */
export function isCountSentence(path: string): boolean {
  return /^response\.pagination\.total(Count|Pages)\b/.test(path);
}

/** The rule each expectation of counts belongs to, and the expectation in words. */
const EXPECTATIONS: Readonly<Record<ExpectedCounts, { readonly rule: string; readonly words: string }>> = {
  real: { rule: "counts.real-with-withcount", words: "real totals" },
  "minus-one": { rule: "counts.minus-one-without-withcount", words: "-1" },
  absent: { rule: "counts.absent-after-removal", words: "absent" },
  "not-applicable": { rule: "counts.real-with-withcount", words: "anything" },
};

/** The rule each expectation of counts belongs to. */
export const countRule = (expected: ExpectedCounts): string => EXPECTATIONS[expected].rule;

/** An expectation of counts in words: `real totals`, `-1`, `absent`. */
export const describeExpected = (expected: ExpectedCounts): string => EXPECTATIONS[expected].words;

/** Both totals of a page given (`-1` is the seed's "not provided"): the totals a crawl can be held to. */
export const givesTotals = ({ totalCount, totalPages }: PageCounts): boolean =>
  typeof totalCount === "number" && totalCount >= 0 && typeof totalPages === "number" && totalPages >= 0;

/**
 * The totals a crawl's first page declared against the entries the crawl counted (`counts.real-with-withcount`):
 * what disagrees, one sentence each; empty when they agree (or the page declared no total).
 */
export function totalsDisagree(first: PageCounts, counted: number): string[] {
  const { totalCount, totalPages, pageSize } = first;
  if (typeof totalCount !== "number") return [];
  const problems: string[] = [];
  if (totalCount !== counted)
    problems.push(`totalCount is ${totalCount} but the crawl counted ${counted} entries`);
  if (typeof pageSize === "number" && pageSize > 0) {
    const pages = Math.ceil(totalCount / pageSize);
    if (totalPages !== pages)
      problems.push(
        `totalPages is ${String(totalPages)} but ${totalCount} entries at pageSize ${pageSize} make ${pages}`,
      );
  }
  return problems;
}

/** The ids of the count deprecation's timeline entries in force: what a count check's verdict rests on. */
export function countTimelineIds(rules: DatedRules): string[] {
  return rules.inForce.filter((e) => e.affects === "count-deprecation").map((e) => e.id);
}

/** The count modes in the order the timeline brings them, and the entry that starts each. */
const ORDER: readonly CountMode[] = ["always-real", "default-true", "default-false", "absent"];
const STARTED_BY: Readonly<Partial<Record<CountMode, TimelineEffect>>> = {
  "default-true": "withcount-introduced",
  "default-false": "withcount-default-false",
  absent: "count-fields-removed",
};

type Seen = "real" | "minus-one" | "absent" | "other";

/** What a page's counts were. */
function countsSeen(counts: PageCounts | undefined): Seen {
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

/**
 * A difference from a recording that a timeline entry explains: the entry came into force between the
 * recording and the date judged (`inForce`), or the recording was made after it and the date is before it.
 */
export interface DatedChange {
  readonly entry: TimelineEntry;
  /** The rule that holds thanks to the change. */
  readonly rule: string;
  readonly inForce: boolean;
  readonly what: string;
}

/**
 * The dated change that explains why counts legal at the date of `rules` differ from the recorded ones
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
  const was =
    seen === "absent" ? "absent" : `${String(recorded?.totalCount)} and ${String(recorded?.totalPages)}`;
  return {
    entry,
    rule: countRule(expected),
    inForce,
    what: `pagination.totalCount and totalPages: recorded ${was}, now ${describeExpected(expected)}`,
  };
}
