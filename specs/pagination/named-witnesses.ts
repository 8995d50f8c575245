import {
  type CrawlLog,
  type CrawlPageLog,
  type EntryId,
  namedWitness,
  type Route,
  servedKinds,
} from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { type CrawlResult, endedLegally } from "../runner/crawler.js";

/** A crawl of a listing whose entries name entries of the listing judged. */
export interface NamingCrawl {
  readonly route: Route;
  readonly crawl: CrawlResult;
}

/**
 * The crawls of the listings that name `route`'s entries: their default crawls (made once a run, so
 * before `route`'s own crawls when its completeness is judged first), or with `again` a fresh crawl each
 * at their largest page size, made after them. Only those that ended legally.
 */
export async function namingCrawls(ctx: CheckContext, route: Route, again?: string): Promise<NamingCrawl[]> {
  const found: NamingCrawl[] = [];
  // The listings served at the date whose entries name `route`'s (`pagination.names` in routes.yaml).
  const naming = ctx
    .servedListings()
    .filter((other) => other !== route && other.pagination?.names?.some((n) => n.route === route.id));
  for (const other of naming) {
    const crawl = again
      ? await ctx.crawlSized(other, other.pagination?.maxPageSize ?? 100, `${again}, naming ${route.id}`)
      : await ctx.crawl(other, "default");
    if (endedLegally(crawl.stop) && crawl.log.unlogged !== true) found.push({ route: other, crawl });
  }
  return found;
}

/** The entries the listing's own crawls served inside others (`pagination.holds`): held id → holder's. */
function holdersIn(own: readonly CrawlLog[]): Map<EntryId, EntryId> {
  const holders = new Map<EntryId, EntryId>();
  for (const log of own) {
    for (const page of log.pages) {
      const held = page.held;
      if (held) for (const [i, id] of held.ids.entries()) holders.set(id, held.by[i] ?? id);
    }
  }
  return holders;
}

/** A witness whose entries held inside others are named by their holders, each once a page. */
function byHolders(witness: CrawlLog, holders: ReadonlyMap<EntryId, EntryId>): CrawlLog {
  if (holders.size === 0) return witness;
  const pages = witness.pages.map((page): CrawlPageLog => {
    const ids: EntryId[] = [];
    const dates: number[] = [];
    page.ids.forEach((id, i) => {
      const named = holders.get(id) ?? id;
      if (ids.includes(named)) return;
      ids.push(named);
      dates.push(page.dates?.[i] ?? Number.NaN);
    });
    return { ...page, ids, dates };
  });
  return { ...witness, pages };
}

/**
 * What the naming crawls say of `route`'s entries, as witnesses of its completeness: where `route` may
 * leave entries out by default (`filteredBy`), only entries of a kind its own crawls served vouch. A
 * witness that names none of the entries the listing served, though it served some, reads ids that are
 * not the listing's (in the seed, an entry of the items listing may be an order's line, named by the
 * order's id, not by its items'): it vouches for nothing. An entry the listing serves inside another
 * (`pagination.holds`: the order's line holds the order's items) is looked for as its holder.
 */
export function namedWitnesses(
  route: Route,
  naming: readonly NamingCrawl[],
  own: readonly CrawlLog[],
): CrawlLog[] {
  const served = route.pagination?.filteredBy ? servedKinds(own) : undefined;
  const ownIds = new Set(own.flatMap((log) => log.pages.flatMap((page) => page.ids)));
  const holders = holdersIn(own);
  return naming
    .map((n) => byHolders(namedWitness(n.crawl.log, route.id, n.route.id, served), holders))
    .filter(
      (witness) => ownIds.size === 0 || witness.pages.some((page) => page.ids.some((id) => ownIds.has(id))),
    );
}
