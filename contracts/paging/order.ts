import type { CrawlLog, CrawlPageLog, EntryId } from "./crawl.js";

/** The order a listing is asked for: `sortOrder=Desc` (the service's default) or `sortOrder=Asc`. */
export type SortDirection = "desc" | "asc";

/** One entry of a crawl, where the judge met it. */
export interface PlacedEntry {
  readonly id: EntryId;
  /** Its `date`, in milliseconds since the epoch. */
  readonly date: number;
  readonly page: CrawlPageLog;
}

/** The first place a crawl went against its order: `entry` came after `previous` but belongs before it. */
export interface OrderBreak {
  readonly previous: PlacedEntry;
  readonly entry: PlacedEntry;
}

/** What one crawl's dates say about its order. */
export interface DateOrder {
  /** Entries with a date the judge could read. */
  readonly dated: number;
  /** Entries without one (no `date`, or not a date): left out of the judgement. */
  readonly undated: number;
  readonly broken: OrderBreak | undefined;
}

/**
 * Judges a whole crawl, across its page boundaries, against the order it was asked for (the provider's
 * document: listings are sorted by `date`, descending unless `sortOrder=Asc`). Entries of equal dates may
 * come in any order; entries without a readable date are skipped, so an undated entry breaks nothing. A
 * crawl that kept no pages (`unlogged`) or no dates is judged on nothing (`dated` 0).
 *
 * @example
 * const order = judgeDateOrder(crawl.log, "desc");
 * if (order.broken) console.log(`${order.broken.entry.id} is newer than ${order.broken.previous.id}`);
 */
export function judgeDateOrder(crawl: CrawlLog, direction: SortDirection): DateOrder {
  let dated = 0;
  let undated = 0;
  let previous: PlacedEntry | undefined;
  let broken: OrderBreak | undefined;
  for (const page of crawl.pages) {
    page.ids.forEach((id, i) => {
      const date = page.dates?.[i];
      if (date === undefined || Number.isNaN(date)) {
        undated++;
        return;
      }
      dated++;
      const entry: PlacedEntry = { id, date, page };
      const late = previous && (direction === "desc" ? date > previous.date : date < previous.date);
      if (previous && late && !broken) broken = { previous, entry };
      previous = entry;
    });
  }
  return { dated, undated, broken };
}
