import type { EntryId, ForeignEntries, Owner, Route } from "../../contracts/index.js";
import type { CheckContext, CrawlVariant } from "../runner/context.js";
import { type CrawlResult, describeStop, stopRule } from "../runner/crawler.js";
import type { SubjectFinding } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, pageExchange } from "./completeness.js";

/**
 * Runs `judge` on the crawl of every listing served at the date. A crawl that stopped on another rule's
 * violation is a skip pointing at that rule, so one fault is blamed on one rule.
 */
export async function judgeCrawls(
  ctx: CheckContext,
  variant: CrawlVariant,
  ownRule: string,
  judge: (result: CrawlResult, route: Route) => SubjectFinding,
  routes: readonly Route[] = ctx.servedListings(),
): Promise<SubjectFinding[]> {
  // The listings are crawled at once (the run's --concurrency bounds the requests), judged in order.
  const results = await Promise.all(routes.map((route) => ctx.crawl(route, variant)));
  const findings: SubjectFinding[] = [];
  for (const [i, route] of routes.entries()) {
    const result = results[i] as CrawlResult;
    const owner = stopRule(result.stop, route);
    if (result.stop.kind === "first-page-refused" && owner !== ownRule) {
      findings.push({ verdict: "skip", subject: route.id, reason: describeStop(result) });
      continue;
    }
    findings.push(judge(result, route));
  }
  return findings;
}

/**
 * `judgeCrawls` on the default crawl of every listing and then, where that one holds, on every other crawl
 * the completeness checks made of it (other page sizes, oldest first, asked aloud, again): the first of
 * them that `ownRule` owns the violation of is judged, its label before the reason. A provider whose
 * tokens fail only at one page size breaks a client that asks that size, and before, only the
 * completeness checks skipped.
 */
export async function judgeEveryCrawl(
  ctx: CheckContext,
  ownRule: string,
  judge: (result: CrawlResult, route: Route) => SubjectFinding,
): Promise<SubjectFinding[]> {
  // Each listing on its own, the listings at once: a listing's crawls keep their order.
  const routes = ctx.servedListings();
  await Promise.all(routes.map((route) => ctx.crawl(route, "default")));
  const judged = await Promise.all(
    routes.map(async (route): Promise<SubjectFinding[]> => {
      const [own] = await judgeCrawls(ctx, "default", ownRule, judge, [route]);
      if (own?.verdict !== "pass") return own ? [own] : [];
      const { made } = await completenessOf(ctx, route);
      const broken = made.find(
        (crawl) => crawl.stop.kind !== "first-page-refused" && stopRule(crawl.stop, route) === ownRule,
      );
      const finding = broken && judge(broken, route);
      return [
        finding && finding.verdict === "fail"
          ? { ...finding, reason: `${broken.log.label}: ${finding.reason}` }
          : own,
      ];
    }),
  );
  return judged.flat();
}

/** Runs `judge` on every listing served at the date that `takes` accepts, one after the other. */
export async function judgeListings(
  ctx: CheckContext,
  takes: (route: Route) => boolean,
  judge: (ctx: CheckContext, route: Route) => Promise<SubjectFinding>,
): Promise<SubjectFinding[]> {
  return Promise.all(
    ctx
      .servedListings()
      .filter(takes)
      .map((route) => judge(ctx, route)),
  );
}

/** `1, 2, 3`, or the first ten and how many in all. */
export const idList = (ids: readonly EntryId[]) =>
  ids.length <= 10 ? ids.join(", ") : `${ids.slice(0, 10).join(", ")} … (${ids.length} in all)`;

/** `3 pages, 45 entries, 2 tokens (2 with + / = % & or space)`. */
export function crawlNote(result: CrawlResult): string {
  const unusual = result.tokens.unusual > 0 ? ` (${result.tokens.unusual} with + / = % & or space)` : "";
  return `${result.route.id}: ${result.pages} pages, ${result.entries} entries, ${result.tokens.sent} tokens${unusual}`;
}

/**
 * The failure of a listing asked for `own` (a form's `Type/slug`, an organization's slug) that served
 * entries naming another `owner`; `why` says what that costs.
 */
export function foreignFinding(
  route: Route,
  owner: Owner,
  own: string,
  { ids, names, crawl, page }: ForeignEntries,
  why: string,
): SubjectFinding {
  const reason = `${route.id} of ${own} served ${ids.length} ${ids.length === 1 ? "entry" : "entries"} of another ${owner} (${idList(ids)}; the first names ${names}), ${why}`;
  return {
    verdict: "fail",
    subject: route.id,
    reason,
    evidence: {
      ...pageExchange(page),
      diagnostics: [
        reason,
        `${route.id} (${crawl.label}) served ${ids[0]} on page ${page.index}: ${page.url}`,
      ],
      crawl: crawlPicture(
        crawl,
        page,
        `entries of ${own} only`,
        `${ids.length} of another ${owner}, ${ids[0]} first`,
      ),
    },
  };
}
