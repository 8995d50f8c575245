import {
  type CrawlLog,
  type DateOrder,
  judgeDateOrder,
  type Route,
  type SortDirection,
} from "../../contracts/index.js";
import { isoInstant } from "../../core/dates.js";
import type { CheckContext } from "../runner/context.js";
import { describeStop, endedLegally, stopRule } from "../runner/crawler.js";
import type { Evidence } from "../runner/types.js";
import { passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, pageExchange } from "./completeness.js";
import { takesSortOrder } from "./crawl-plan.js";
import { judgeListings } from "./listing-findings.js";

const WORDS: Readonly<Record<SortDirection, { order: string; first: string; later: string }>> = {
  desc: { order: "newest first", first: "newer", later: "older" },
  asc: { order: "oldest first", first: "older", later: "newer" },
};

/**
 * The first break of a crawl's order, as a failed finding; undefined when the crawl keeps its order.
 * `verify --cassette` reports it too, on the crawl it re-sent (specs/rerun/crawls.ts).
 */
export function orderBreakOf(route: Route, log: CrawlLog, order: DateOrder, direction: SortDirection) {
  const broken = order.broken;
  if (!broken) return undefined;
  const { previous, entry } = broken;
  const words = WORDS[direction];
  const where =
    previous.page === entry.page
      ? `on page ${entry.page.index}`
      : `across the boundary of pages ${previous.page.index} and ${entry.page.index}`;
  const reason = `the crawl asked ${words.order} (${log.label}) served entry ${entry.id} (${isoInstant(entry.date)}) after entry ${previous.id} (${isoInstant(previous.date)}), ${where}: a client that stops at the first entry it already has loses what comes after`;
  const evidence: Evidence = {
    ...pageExchange(entry.page),
    diagnostics: [
      reason,
      `entry ${entry.id} is ${words.first} than entry ${previous.id}, which page ${previous.page.index} served before it: ${previous.page.url}`,
    ],
    crawl: crawlPicture(
      log,
      entry.page,
      `every entry ${words.order} by date`,
      `entry ${entry.id} ${words.first} than entry ${previous.id} before it`,
    ),
  };
  return { verdict: "fail", subject: route.id, reason, evidence } satisfies SubjectFinding;
}

/** Every crawl of one listing the completeness checks made, oldest first among them, each in its order. */
async function judgeListing(ctx: CheckContext, route: Route): Promise<SubjectFinding> {
  const outcome = await completenessOf(ctx, route);
  if (outcome.kind === "skip") return skipOn(route.id, outcome.reason);
  let dated = 0;
  for (const log of outcome.logs) {
    const direction = log.ascending ? "asc" : "desc";
    const order = judgeDateOrder(log, direction);
    dated = Math.max(dated, order.dated);
    const broken = orderBreakOf(route, log, order, direction);
    if (broken) return broken;
  }
  if (dated === 0) return skipOn(route.id, "no entry carries a date to order by");
  // The crawl oldest first, made with the completeness checks' (memoised): judged above when it ended.
  const ascending = await ctx.crawl(route, "ascending");
  if (!endedLegally(ascending.stop)) {
    const reason = `the crawl with sortOrder=Asc did not end cleanly, though the default one did: ${describeStop(ascending)}`;
    // A violation after its first page is its owner's (judgeEveryCrawl): one fault, one rule.
    const owned =
      ascending.stop.kind !== "first-page-refused" && stopRule(ascending.stop, route) !== undefined;
    return { verdict: owned ? "skip" : "fail", subject: route.id, reason };
  }
  return passOn(
    route.id,
    `${route.id}: ${dated} dated entries in order in each of ${outcome.logs.length} crawls, one of them oldest first`,
  );
}

/**
 * The order of a whole crawl: a listing is sorted by `date`, newest first unless `sortOrder=Asc` asks
 * for oldest first (the provider's document, every listing route). Judged across page boundaries on
 * every crawl the completeness checks made, plus one crawl oldest first, so a provider that sorts each
 * page but not the listing, sorts by another field, or ignores `sortOrder` is caught. An integrator that
 * syncs by date, stopping at the first entry it already has, loses entries to any of these.
 */
export const dateOrderCheck = specCheck({
  id: "pagination/date-order",
  rule: "pagination.date-order",
  title: "A crawl comes in date order: newest first, oldest first with sortOrder=Asc",
  run: (ctx) => judgeListings(ctx, judgeListing, "listings in date order", takesSortOrder),
});
