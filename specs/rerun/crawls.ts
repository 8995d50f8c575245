import {
  type CrawlLog,
  type CrawlPageLog,
  judgeCompleteness,
  judgeDateOrder,
  type Route,
  readRoutePage,
} from "../../contracts/index.js";
import type { Finding } from "../../report/index.js";
import { lossEvidence } from "../pagination/completeness.js";
import { orderBreakOf } from "../pagination/date-order.js";
import { asksAscending } from "../runner/crawl-query.js";
import { crawl, describeStop, endedLegally, stopRule } from "../runner/crawler.js";
import type { HttpClient, HttpRequest } from "../runner/http.js";
import { DEFAULTS } from "../runner/options.js";
import type { TokenSource } from "../runner/tokens.js";
import { crawlFinding, type Exchange, type Judgement } from "./finding.js";
import { type ListingCrawl, type Listings, type TargetPage, TOKEN_PARAM } from "./listings.js";
import type { RerunStep } from "./steps.js";

/** Notes a recorded page of a crawl, re-sent or not: what the recording vouches the listing held. */
export function noteRecordedPage(crawl: ListingCrawl, step: RerunStep, body: unknown): void {
  const route = step.match?.route;
  const page = route && readRoutePage(body, route);
  if (!page?.ok) return;
  crawl.recorded.push({
    index: crawl.recorded.length + 1,
    url: step.interaction.request.path,
    sentToken: undefined,
    status: step.interaction.response.status,
    ids: page.ids,
    token: page.token,
  });
}

/** True while every entry the recording showed so far came from the target too. */
export function keepsRecordedEntries(crawl: ListingCrawl): boolean {
  return crawl.recorded.every((page) => page.ids.every((id) => crawl.seen.has(id)));
}

function logOf(label: string, pages: readonly CrawlPageLog[], at: [number, number]): CrawlLog {
  const last = pages.at(-1);
  const end = !last
    ? "cut"
    : last.ids.length === 0
      ? "empty-page"
      : last.token === undefined
        ? "no-token"
        : "cut";
  return { label, pageSize: undefined, startedAt: at[0], endedAt: at[1], pages, end };
}

/** What the witness crawl asks for: the first page's query without its token, at the largest page size. */
const witnessQuery = (url: string, route: Route): [string, string][] => [
  ...[...new URL(url).searchParams].filter(
    ([name]) => ![TOKEN_PARAM, "pagesize"].includes(name.toLowerCase()),
  ),
  ["pageSize", String(route.pagination?.maxPageSize ?? 100)],
];

/**
 * The target's crawl judged whole for its order (`pagination.date-order`): newest first, or oldest first
 * where the client asked `sortOrder=Asc`.
 */
function orderFinding(listing: ListingCrawl, route: Route, first: CrawlPageLog): Finding | undefined {
  const direction = asksAscending([...new URL(first.url).searchParams]) ? "asc" : "desc";
  const target = logOf("the target's crawl", listing.targetLog, [listing.startedAt, listing.endedAt]);
  // Where the recorded crawl reached its end and the target's did not (a listing that never ends), the
  // crawl is judged on its end, as verify's crawl judges do; a client that stopped early is judged as far as it went.
  if (target.end === "cut" && logOf("the recording", listing.recorded, [0, 0]).end !== "cut")
    return undefined;
  const broken = orderBreakOf(route, target, judgeDateOrder(target, direction), direction);
  if (!broken || !listing.lastStep) return undefined;
  return crawlFinding(listing.lastStep, "pagination.date-order", broken.reason, broken.evidence);
}

/**
 * After the rerun, judges each crawl of a listing as a whole, by the one crawl judge: the recording
 * vouches which entries the listing held before the target was crawled; a fresh crawl of the target at
 * the largest page size shows which it still holds. An entry in both and missing from the target's
 * crawl was lost by the target (between two pages, by an early empty page or a page without a token).
 * A target holding other data than the recording loses nothing: its witness lacks the recorded ids.
 */
export async function judgeRerunCrawls(session: {
  readonly http: HttpClient;
  readonly tokens: TokenSource;
  readonly listings: Listings;
}): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const listing of session.listings.all()) {
    const route = listing.lastStep?.match?.route;
    const first = listing.targetLog[0];
    if (!route?.pagination || !first || !listing.lastStep) continue;
    const ordered = orderFinding(listing, route, first);
    if (ordered) findings.push(ordered);
    if (!listing.fromFirstPage || keepsRecordedEntries(listing)) continue;
    const witness = await crawl(session.http, {
      route,
      url: first.url.split("?")[0] ?? first.url,
      query: witnessQuery(first.url, route),
      knownEntries: undefined,
      maxPages: 10_000,
      // Bounded as verify bounds a crawl (10 minutes), not by a multiple of a request's.
      timeLimitMs: DEFAULTS.crawlTimeLimitMs,
      authorization: () => session.tokens.authorization("reader"),
      label: `a fresh crawl of the target at pageSize ${route.pagination.maxPageSize}`,
    });
    if (!endedLegally(witness.stop)) continue;
    const recorded = logOf("the recording", listing.recorded, [0, 0]);
    const target = logOf("the target's crawl", listing.targetLog, [listing.startedAt, listing.endedAt]);
    const judged = judgeCompleteness([
      recorded,
      { ...target, end: target.end === "cut" ? "no-token" : target.end },
      witness.log,
    ]);
    for (const loss of judged.losses.filter((l) => l.crawl.label === target.label)) {
      findings.push(crawlFinding(listing.lastStep, loss.rule, loss.reason, lossEvidence(loss)));
    }
  }
  return findings;
}

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
