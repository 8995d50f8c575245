import { type CrawlLog, namedWitness, type Route, servedKinds } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { endedLegally } from "../runner/crawl-stops.js";
import type { CrawlResult } from "../runner/crawler.js";

/** A crawl of a listing whose entries name entries of the listing judged. */
export interface NamingCrawl {
  readonly route: Route;
  readonly crawl: CrawlResult;
}

/** The listings served at the date whose entries name `route`'s (`pagination.names` in routes.yaml). */
function namingListings(ctx: CheckContext, route: Route): Route[] {
  return ctx
    .servedListings()
    .filter((other) => other !== route && other.pagination?.names?.some((n) => n.route === route.id));
}

/**
 * The crawls of the listings that name `route`'s entries: their default crawls (made once a run, so
 * before `route`'s own crawls when its completeness is judged first), or with `again` a fresh crawl each
 * at their largest page size, made after them. Only those that ended legally.
 */
export async function namingCrawls(ctx: CheckContext, route: Route, again?: string): Promise<NamingCrawl[]> {
  const found: NamingCrawl[] = [];
  for (const other of namingListings(ctx, route)) {
    const crawl = again
      ? await ctx.crawlSized(other, other.pagination?.maxPageSize ?? 100, `${again}, naming ${route.id}`)
      : await ctx.crawl(other, "default");
    if (endedLegally(crawl.stop) && crawl.log.unlogged !== true) found.push({ route: other, crawl });
  }
  return found;
}

/**
 * What the naming crawls say of `route`'s entries, as witnesses of its completeness: where `route` may
 * leave entries out by default (`filteredBy`), only entries of a kind its own crawls served vouch.
 */
export function namedWitnesses(
  route: Route,
  naming: readonly NamingCrawl[],
  own: readonly CrawlLog[],
): CrawlLog[] {
  const served = route.pagination?.filteredBy ? servedKinds(own) : undefined;
  return naming.map((n) => namedWitness(n.crawl.log, route.id, n.route.id, served));
}
