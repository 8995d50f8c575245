import { isoInstant } from "../../core/dates.js";
import type { CrawlLog, EntryId } from "./crawl.js";
import type { PlacedEntry } from "./order.js";

/**
 * Where a window's ends fall: `on-entries`, on the dates of two listed entries (the 6th, included; the
 * 1st, excluded), which puts `from` included and `to` excluded to the test; `past-entries`, 1 ms after
 * two (the 7th, left out; the 2nd, held), so that a provider reading an end early (its fraction of a
 * second cut off, its offset misread) loses the entry just inside `to` or serves the one just before
 * `from`. Both hold the same entries. `since-entry`: from the 6th's date, no `to` (an integrator's sync
 * since its last run), which holds the 1st too. `nothing-new`: from 1 ms after the newest entry, no `to`
 * (the same sync when nothing came since): it holds no entry, and its first page is the empty end.
 */
export const WINDOW_EDGES = ["on-entries", "past-entries", "since-entry", "nothing-new"] as const;
export type WindowEdges = (typeof WINDOW_EDGES)[number];

/** A date window of a listing (`from` included, `to` excluded, in milliseconds) and what it must hold. */
export interface DateWindow {
  readonly from: number;
  /** `Infinity` where no `to` is asked (`since-entry`). */
  readonly to: number;
  /** The entries a crawl showed dated in it, newest first. */
  readonly expected: readonly EntryId[];
  readonly edges: WindowEdges;
  /** The one of `expected` that sits at an end (the oldest on entries' dates, else the newest); none for `nothing-new`. */
  readonly edge: EntryId | undefined;
}

/** An entry a windowed crawl served dated outside its window, and the page it came on. */
export type OutsideEntry = PlacedEntry;

/** What a crawl of a date window served, against what it had to. */
export interface WindowJudgement {
  /** Entries dated in the window that the windowed crawl lacks. */
  readonly missing: readonly EntryId[];
  /** Entries it served dated before `from` or from `to` on. */
  readonly outside: readonly OutsideEntry[];
}

/**
 * A window over the newest entries of a crawl made newest first, holding its 2nd to its `span + 1`th
 * entries: `on-entries`, from the date of the `span + 1`th (included) to that of the first (excluded);
 * `past-entries`, from 1 ms after the `span + 2`th's to 1 ms after the 2nd's; `since-entry`, from the
 * `span + 1`th's with no `to`, holding the 1st too; `nothing-new`, from 1 ms after the 1st's with no
 * `to`, holding nothing (`WindowEdges`). Undefined
 * when the crawl has too few dated entries, or two of them share a millisecond near the ends (the
 * window would be ambiguous).
 *
 * @example
 * const window = windowOf(defaultCrawl.log); // from = 6th entry's date, to = 1st entry's date
 * // expected: the 2nd to the 6th entries
 */
export function windowOf(
  crawl: CrawlLog,
  span = 5,
  edges: WindowEdges = "on-entries",
): DateWindow | undefined {
  const entries: { id: EntryId; date: number }[] = [];
  for (const page of crawl.pages) {
    for (const [i, id] of page.ids.entries()) entries.push({ id, date: page.dates?.[i] ?? Number.NaN });
    if (entries.length > span + 2) break;
  }
  if (edges === "nothing-new") {
    const newest = entries[0]?.date ?? Number.NaN;
    if (Number.isNaN(newest)) return undefined;
    return { from: newest + 1, to: Number.POSITIVE_INFINITY, expected: [], edges, edge: undefined };
  }
  // The entries the window needs beside those it holds: the 1st, and past entries the one before `from`.
  const around = edges === "past-entries" ? 3 : 2;
  const last = Math.min(span, entries.length - around);
  if (last < 1) return undefined;
  const chosen = entries.slice(0, last + around);
  if (chosen.some((e, i) => Number.isNaN(e.date) || (i > 0 && e.date >= (chosen[i - 1]?.date ?? 0)))) {
    return undefined;
  }
  const expected = chosen.slice(1, last + 1).map((e) => e.id);
  const dateAt = (i: number) => chosen[i]?.date as number;
  switch (edges) {
    case "on-entries":
      return { from: dateAt(last), to: dateAt(0), expected, edges, edge: expected.at(-1) as EntryId };
    case "past-entries":
      return { from: dateAt(last + 1) + 1, to: dateAt(1) + 1, expected, edges, edge: expected[0] as EntryId };
    case "since-entry": {
      const since = [chosen[0]?.id as EntryId, ...expected];
      return {
        from: dateAt(last),
        to: Number.POSITIVE_INFINITY,
        expected: since,
        edges,
        edge: expected.at(-1) as EntryId,
      };
    }
  }
}

/**
 * A window's ends as a reason writes them.
 *
 * @example windowSpan(window) // "from=2025-03-01T09:00:00.000Z (included) to=2025-03-06T09:00:00.000Z (excluded)"
 */
export function windowSpan(window: DateWindow): string {
  const from = `from=${isoInstant(window.from)} (included)`;
  return Number.isFinite(window.to) ? `${from} to=${isoInstant(window.to)} (excluded)` : `${from}, no to`;
}

/**
 * Judges a crawl of a window: every expected entry served, none dated outside it. Entries without a
 * readable date are not judged outside.
 */
export function judgeWindow(window: DateWindow, crawl: CrawlLog): WindowJudgement {
  const served = new Set<EntryId>();
  const outside: OutsideEntry[] = [];
  for (const page of crawl.pages) {
    page.ids.forEach((id, i) => {
      served.add(id);
      const date = page.dates?.[i];
      if (date === undefined || Number.isNaN(date)) return;
      if (date < window.from || date >= window.to) outside.push({ id, date, page });
    });
  }
  return { missing: window.expected.filter((id) => !served.has(id)), outside };
}
