import { crawl, describeStop, endedLegally, stopRule } from "../runner/crawler.js";
import type { HttpClient, HttpRequest } from "../runner/http.js";
import { DEFAULTS } from "../runner/options.js";
import type { Exchange, Judgement } from "./finding.js";
import { type ListingCrawl, type TargetPage, TOKEN_PARAM } from "./listings.js";

/** Most pages followed past the recording's end when the target declares no total. */
const EXTRA_PAGES = 100;

/** Pages the target may still need: its declared total, when real, else a fixed bound. */
function bound(listing: ListingCrawl): number {
  const { totalCount, pageSize } = listing.pages[0]?.counts ?? {};
  if (typeof totalCount === "number" && totalCount >= 0 && typeof pageSize === "number" && pageSize > 0)
    return Math.max(1, Math.ceil(totalCount / pageSize) + 2 - listing.pages.length);
  return EXTRA_PAGES;
}

/**
 * Where the recorded crawl ended on an empty page and the target's page still holds entries, the
 * target's listing is longer (another data set) or never ends: verify's crawler follows its own tokens
 * from there, bounded, to its end, and a crawl that does not end legally breaks the rule that owns its
 * stop. Returns true when the crawl ended legally (empty page, or no token).
 */
export async function followToEnd(
  http: HttpClient,
  exchange: Exchange,
  request: HttpRequest,
  page: TargetPage,
  listing: ListingCrawl,
  judgement: Judgement,
): Promise<boolean> {
  const route = exchange.route;
  if (!route || page.token === undefined) return page.token === undefined;
  const result = await crawl(http, {
    route,
    url: request.url.split("?")[0] ?? request.url,
    query: [...exchange.query].filter(([name]) => name.toLowerCase() !== TOKEN_PARAM),
    from: page.token,
    knownEntries: undefined,
    maxPages: bound(listing),
    timeLimitMs: DEFAULTS.crawlTimeLimitMs,
    authorization: async () => request.authorization,
  });
  const before = listing.seen.size;
  for (const followed of result.log.pages) {
    listing.targetLog.push({ ...followed, index: listing.targetLog.length + 1 });
    for (const id of followed.ids) listing.seen.add(id);
  }
  if (result.log.pages.length > 0) listing.endedAt = result.log.endedAt;
  const rule = stopRule(result.stop, route);
  if (rule && "evidence" in result.stop) {
    judgement.fail(
      rule,
      `past the recording's end, where it ended on an empty page, the target's crawl: ${describeStop(result)}`,
      result.stop.evidence,
    );
  }
  if (result.stop.kind === "empty-page")
    judgement.notes.push(
      `the target's listing is longer than the recording's: it ended on an empty page ${result.pages} page(s) further, after ${listing.seen.size - before} more entries`,
    );
  if (result.stop.kind === "no-token")
    judgement.notes.push(
      "the target's listing is longer than the recording's and ends on a non-empty page without a token (allowed)",
    );
  return endedLegally(result.stop);
}
