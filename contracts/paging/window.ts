import type { CrawlLog, CrawlPageLog, EntryId } from "./crawl.js";

/** A date window of a listing (`from` included, `to` excluded, in milliseconds) and what it must hold. */
export interface DateWindow {
  readonly from: number;
  readonly to: number;
  /** The entries a crawl showed dated in it, newest first. */
  readonly expected: readonly EntryId[];
}

/** An entry a windowed crawl served dated outside its window, and the page it came on. */
export interface OutsideEntry {
  readonly id: EntryId;
  readonly date: number;
  readonly page: CrawlPageLog;
}

/** What a crawl of a date window served, against what it had to. */
export interface WindowJudgement {
  /** Entries dated in the window that the windowed crawl lacks. */
  readonly missing: readonly EntryId[];
  /** Entries it served dated before `from` or from `to` on. */
  readonly outside: readonly OutsideEntry[];
}

/**
 * A window over the newest entries of a crawl made newest first: from the date of its `span + 1`th
 * entry (included) to the date of its first (excluded), so that both ends fall on an entry and the
 * service's `from` included and `to` excluded are both put to the test. Undefined when the crawl has
 * too few dated entries, or two of them share a millisecond near the ends (the window would be ambiguous).
 *
 * @example
 * const window = windowOf(defaultCrawl.log); // from = 6th entry's date, to = 1st entry's date
 * // expected: the 2nd to the 6th entries
 */
export function windowOf(crawl: CrawlLog, span = 5): DateWindow | undefined {
  const entries: { id: EntryId; date: number }[] = [];
  for (const page of crawl.pages) {
    for (const [i, id] of page.ids.entries()) entries.push({ id, date: page.dates?.[i] ?? Number.NaN });
    if (entries.length > span + 1) break;
  }
  const last = Math.min(span, entries.length - 2);
  if (last < 1) return undefined;
  const chosen = entries.slice(0, last + 2);
  if (chosen.some((e, i) => Number.isNaN(e.date) || (i > 0 && e.date >= (chosen[i - 1]?.date ?? 0)))) {
    return undefined;
  }
  const to = chosen[0]?.date as number;
  const from = chosen[last]?.date as number;
  return { from, to, expected: chosen.slice(1, last + 1).map((e) => e.id) };
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
