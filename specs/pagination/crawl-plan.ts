import {
  type CrawlLog,
  orderOfCrawl,
  type Route,
  type WindowEdges,
  windowOf,
} from "../../contracts/index.js";
import { isoInstant } from "../../core/dates.js";
import type { CheckContext } from "../runner/context.js";
import { type CrawlResult, endedLegally } from "../runner/crawler.js";
import type { FormRef } from "../runner/options.js";

/**
 * The crawls the completeness judge asks of a listing: at which page sizes, with what query, and how a
 * suspect crawl is asked again. The judging is completeness.ts's.
 */

/** Whether a listing takes the query parameter `name` (matched whatever its case, as the service does). */
export const takes = (route: Route, name: string) =>
  route.query.some((q) => q.name.toLowerCase() === name.toLowerCase());

/** Listings that take `sortOrder` (an organization's forms and the partner's organizations do not). */
export const takesSortOrder = (route: Route) => takes(route, "sortOrder");

/** Listings that take both `from` and `to`: a date window. */
export const takesWindow = (route: Route) => takes(route, "from") && takes(route, "to");

/** Listings that take `withCount` (every listing whose totals the timeline dates). */
export const takesWithCount = (route: Route) => takes(route, "withCount");

/**
 * What a client may ask without changing which entries a listing holds, beyond the page size: its default
 * order asked aloud (`sortOrder=Desc`), the entries' details (`withDetails=True`) and, unless the counts
 * checks crawl with it at this date (`countedCrawl`), the totals (`withCount=True`), where the listing
 * takes them. The crawl at the largest size asks them, as real clients send them (SERVICE-FACTS: booleans
 * as `True`, the token back as `continuationtoken`, `REAL_CLIENTS_TOKEN`): a provider that serves another
 * path for them (a join that drops entries without details, say), or reads only the document's spelling,
 * loses entries there or serves the first page again.
 */
export function explicitQuery(route: Route, countedCrawl: boolean): [string, string][] {
  return [
    ...(takesSortOrder(route) ? [["sortOrder", "Desc"] as [string, string]] : []),
    ...(takes(route, "withDetails") ? [["withDetails", "True"] as [string, string]] : []),
    ...(takesWithCount(route) && !countedCrawl ? [["withCount", "True"] as [string, string]] : []),
  ];
}

/** The name real clients send the continuation token under (the service matches names whatever their case). */
export const REAL_CLIENTS_TOKEN = "continuationtoken";

/**
 * Whether the counts checks crawl a listing with `withCount=true` at the run's date (while the totals
 * are there and `withCount` decides them): the completeness judge then reads that crawl too.
 */
export function countsCrawlWithCount(ctx: CheckContext, route: Route): boolean {
  const mode = ctx.datedRulesAt(route).countMode;
  return takesWithCount(route) && (mode === "default-true" || mode === "default-false");
}

/** The small odd page size every listing is also crawled at. */
export const SMALL_PAGE_SIZE = 7;

/** The page sizes crawled besides the default crawl's: a small odd one and the largest allowed. */
export function otherSizes(route: Route, asked: number | undefined): number[] {
  const largest = route.pagination?.maxPageSize ?? 100;
  const sizes = [SMALL_PAGE_SIZE, largest].map((size) => (size === asked ? size - 2 : size));
  return [...new Set(sizes.filter((size) => size > 0))];
}

/** The most pages the crawl with a full last page may take: it costs a request a page. */
const FULL_LAST_PAGE_MOST_PAGES = 10;

/**
 * A page size at which a listing of `entries` ends on an exactly full page, when none of the sizes
 * crawled already (`crawled`) does: the token that page gives must lead to the empty page, a boundary
 * the other crawls meet only where the count happens to divide. The largest size (at most `largest`)
 * that takes two pages or more, else the count itself (one full page); `undefined` when a crawled size
 * divides the count already, when the listing is empty, or when no size gives at most 10 pages (a prime
 * count above `largest`). Never 1 over several pages: there a page that loses its entry is an early empty
 * page, and one that repeats the entry before is the page before, so a loss or a repeat at a boundary
 * would be blamed on another rule.
 *
 * @example fullLastPageSize(50, [20, 7, 100], 100) // 25: two full pages, then the empty page
 */
export function fullLastPageSize(
  entries: number,
  crawled: readonly number[],
  largest: number,
): number | undefined {
  if (entries <= 0 || crawled.some((size) => size > 0 && entries % size === 0)) return undefined;
  const sizes: number[] = [];
  for (let size = Math.min(largest, entries); size >= 1; size--) {
    const pages = entries / size;
    if (entries % size === 0 && pages <= FULL_LAST_PAGE_MOST_PAGES && (size > 1 || pages === 1)) {
      sizes.push(size);
    }
  }
  return sizes.find((size) => entries / size >= 2) ?? sizes[0];
}

/**
 * The page sizes at which a listing of `entries` holds one entry more than a page (limit + 1) and two
 * pages and one (2 · limit + 1): CursorProof's boundary sizes, where a provider that miscounts what is
 * left drops, or serves again, the entry alone on the last page. Sizes of `crawled`, those above `largest`
 * and those below the small size are left out: a loss at a page boundary shows there only as an early end
 * (the entry alone on its page), and it is the crawls at the small size, over several pages, that show
 * such a listing loses entries between pages (`judgeCompleteness` then files both on one rule).
 *
 * @example boundarySizes(45, [20, 7, 100, 15], 100) // [44, 22]
 * @example boundarySizes(11, [20, 7, 100], 100) // [10]: 5 is below 7
 */
export function boundarySizes(entries: number, crawled: readonly number[], largest: number): number[] {
  return [entries - 1, (entries - 1) / 2].filter(
    (size) => Number.isInteger(size) && size >= SMALL_PAGE_SIZE && size <= largest && !crawled.includes(size),
  );
}

/**
 * The page size to crawl a witness at: that of the crawl that collected the most entries, among the
 * sizes no suspect was crawled at (a provider that loses entries at one size loses them again there).
 */
export function witnessSize(
  crawls: readonly CrawlResult[],
  suspects: ReadonlySet<number>,
  largest: number,
): number {
  const sized = crawls
    .filter((c) => c.log.pageSize !== undefined && !suspects.has(c.log.pageSize))
    .sort((a, b) => b.entries - a.entries);
  return sized[0]?.log.pageSize ?? largest;
}

/**
 * The page size a date window is crawled at: its five entries then come on three pages, so that a
 * provider that loses entries at page boundaries only when a window is asked (the crawl of an integrator
 * syncing by date) is seen.
 */
export const WINDOW_PAGE_SIZE = 2;

/**
 * A date window over the newest entries of the default crawl (`windowOf`, its ends on entries' dates
 * unless `edges` says otherwise) and its crawl, at `WINDOW_PAGE_SIZE`: pagination.date-window judges
 * what it holds, and the completeness judge reads it as a witness of entries the whole listing's crawls
 * lack. Undefined where the listing takes no window or the default crawl has none to offer. `again` asks
 * the same window once more, under that note.
 *
 * @example
 * const asked = await windowCrawl(ctx, route, byDefault); // from=6th entry's date, to=1st entry's date
 */
export async function windowCrawl(
  ctx: CheckContext,
  route: Route,
  byDefault: CrawlLog,
  again?: string,
  edges: WindowEdges = "on-entries",
) {
  const window = takesWindow(route) ? windowOf(byDefault, 5, edges) : undefined;
  if (!window) return undefined;
  // A window that must hold nothing is asked at the largest size: its first page is all it judges, and a
  // listing growing while it is read (every entry added since is in it) ends there sooner.
  const size = window.edges === "nothing-new" ? (route.pagination?.maxPageSize ?? 100) : WINDOW_PAGE_SIZE;
  const query: [string, string][] = [
    ["from", isoInstant(window.from)],
    ...(Number.isFinite(window.to) ? [["to", isoInstant(window.to)] as [string, string]] : []),
    ["pageSize", String(size)],
  ];
  const ends = Number.isFinite(window.to)
    ? `from ${isoInstant(window.from)} to ${isoInstant(window.to)}`
    : `from ${isoInstant(window.from)} (no to)`;
  const label = `the date window ${ends}, pageSize ${size}${again ? ` (${again})` : ""}`;
  return { window, crawl: await ctx.crawlAsked(route, query, label) };
}

/** How many of the organization's other forms are judged too: the first its forms listing names. */
const OTHER_FORMS = 3;

/**
 * The organization's forms other than the coordinates' one, as its forms listing names them
 * (`Type/slug`, routes.yaml's `entryKey`), the first `most` of its default crawl.
 */
export async function otherForms(ctx: CheckContext, most = OTHER_FORMS): Promise<FormRef[]> {
  const crawl = await ctx.crawl(ctx.contract.routes.byId("v5.organization-forms"), "default");
  if (!endedLegally(crawl.stop)) return [];
  const { formType, formSlug } = await ctx.coordinates();
  const own = `${formType}/${formSlug}`.toLowerCase();
  return orderOfCrawl(crawl.log)
    .filter((id): id is string => typeof id === "string" && id.toLowerCase() !== own)
    .slice(0, most)
    .map((id) => {
      const [type = "", ...slug] = id.split("/");
      return { formType: type, formSlug: slug.join("/") };
    });
}
