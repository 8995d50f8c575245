import { queryBoolean } from "../query.js";
import type { CrawlLog, CrawlPageLog, EntryId } from "./crawl.js";

/** Where a crawl served an entry: the crawl and the page. */
export interface Served {
  readonly crawl: CrawlLog;
  readonly page: CrawlPageLog;
}

/**
 * An entry that read one way in the crawls before and after one crawl, and another way in it: not a
 * change over time (the crawls around it agree), so the page or the crawl decides what it reads.
 */
export interface Discrepancy {
  readonly id: EntryId;
  /** The crawl and page where it read otherwise. */
  readonly odd: Served;
  /** Where it read as it did before and after. */
  readonly before: Served;
  readonly after: Served;
}

/** Whether a crawl asked for the entries' details: they then hold more fields, so compare apart. */
function withDetails(crawl: CrawlLog): boolean {
  return queryBoolean(new URLSearchParams((crawl.query ?? []) as [string, string][]), "withDetails") === true;
}

/** The fingerprint each crawl first served `id` with, in the order the crawls ran. */
function servings(crawls: readonly CrawlLog[]): Map<EntryId, { served: Served; digest: number }[]> {
  const byId = new Map<EntryId, { served: Served; digest: number }[]>();
  for (const crawl of crawls) {
    const seen = new Set<EntryId>();
    for (const page of crawl.pages) {
      if (!page.digests) continue;
      for (const [i, id] of page.ids.entries()) {
        const digest = page.digests[i];
        if (digest === undefined || seen.has(id)) continue;
        seen.add(id);
        const list = byId.get(id) ?? [];
        list.push({ served: { crawl, page }, digest });
        byId.set(id, list);
      }
    }
  }
  return byId;
}

/**
 * Judges whether each entry reads the same in every crawl of a listing. An entry may change while the
 * listing is crawled (a payment refunded, an order updated), so a crawl where it read otherwise is
 * blamed only when a crawl that ended before it started and one that started after it ended both read
 * it the same way: it changed and changed back, which no update does. Crawls asked with and without the
 * entries' details are compared apart; crawls that kept no fingerprints are left out.
 *
 * @example
 * const odd = judgeSameness([byDefault, bySeven, oldestFirst]);
 * // [{ id: 12, odd: { crawl: bySeven, page: page2 }, before: …, after: … }]
 */
export function judgeSameness(crawls: readonly CrawlLog[]): Discrepancy[] {
  const found: Discrepancy[] = [];
  for (const details of [false, true]) {
    const group = crawls
      .filter((c) => c.end !== "cut" && withDetails(c) === details)
      .sort((a, b) => a.startedAt - b.startedAt);
    for (const [id, list] of servings(group)) {
      for (const [j, odd] of list.entries()) {
        const before = list.slice(0, j).filter((b) => b.served.crawl.endedAt <= odd.served.crawl.startedAt);
        const after = list.slice(j + 1).filter((a) => a.served.crawl.startedAt >= odd.served.crawl.endedAt);
        const pair = before
          .filter((b) => b.digest !== odd.digest)
          .map((b) => [b, after.find((a) => a.digest === b.digest)] as const)
          .find(([, a]) => a !== undefined);
        if (pair?.[1]) {
          found.push({ id, odd: odd.served, before: pair[0].served, after: pair[1].served });
          break;
        }
      }
    }
  }
  return found;
}
