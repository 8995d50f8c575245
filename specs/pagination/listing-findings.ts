import type { Route } from "../../contracts/index.js";
import type { CheckContext, CrawlVariant } from "../runner/context.js";
import { describeStop, stopRule } from "../runner/crawl-stops.js";
import type { CrawlResult } from "../runner/crawler.js";
import type { Finding } from "../runner/verdicts.js";

/**
 * Runs `judge` on the crawl of every listing served at the date. A crawl that stopped on another rule's
 * violation is a skip pointing at that rule, so one fault is blamed on one rule.
 */
export async function judgeCrawls(
  ctx: CheckContext,
  variant: CrawlVariant,
  ownRule: string,
  judge: (result: CrawlResult, route: Route) => Finding,
  routes: readonly Route[] = ctx.servedListings(),
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const route of routes) {
    const result = await ctx.crawl(route, variant);
    const owner = stopRule(result.stop, route);
    if (result.stop.kind === "first-page-refused" && owner !== ownRule) {
      findings.push({ kind: "skip", subject: route.id, reason: describeStop(result) });
      continue;
    }
    findings.push(judge(result, route));
  }
  return findings;
}

/** Runs `judge` on every listing served at the date that `takes` accepts, one after the other. */
export async function judgeListings(
  ctx: CheckContext,
  takes: (route: Route) => boolean,
  judge: (ctx: CheckContext, route: Route) => Promise<Finding>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const route of ctx.servedListings().filter(takes)) findings.push(await judge(ctx, route));
  return findings;
}

/** `1, 2, 3`, or the first ten and how many in all. */
export const idList = (ids: readonly number[]) =>
  ids.length <= 10 ? ids.join(", ") : `${ids.slice(0, 10).join(", ")} … (${ids.length} in all)`;

/** `3 pages, 45 entries, 2 tokens (2 with + / = % & or space)`. */
export function crawlNote(result: CrawlResult): string {
  const unusual = result.tokens.unusual > 0 ? ` (${result.tokens.unusual} with + / = % & or space)` : "";
  return `${result.route.id}: ${result.pages} pages, ${result.entries} entries, ${result.tokens.sent} tokens${unusual}`;
}
