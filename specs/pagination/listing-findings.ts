import type { EntryId, ForeignEntries, Owner, Route } from "../../contracts/index.js";
import type { CheckContext, CrawlVariant } from "../runner/context.js";
import { type CrawlResult, describeStop, stopRule } from "../runner/crawler.js";
import type { CheckResult } from "../runner/types.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
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
      findings.push(skipOn(route.id, describeStop(result)));
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

/** Runs `judge` on every listing served at the date that `takes` accepts, at once; combined under `what`. */
export async function judgeListings(
  ctx: CheckContext,
  judge: (ctx: CheckContext, route: Route) => Promise<SubjectFinding>,
  what: string,
  takes: (route: Route) => boolean = () => true,
): Promise<CheckResult> {
  const listings = ctx.servedListings().filter(takes);
  return combine(await Promise.all(listings.map((route) => judge(ctx, route))), what);
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
  return failOn(route.id, reason, {
    ...pageExchange(page),
    diagnostics: [reason, `${route.id} (${crawl.label}) served ${ids[0]} on page ${page.index}: ${page.url}`],
    crawl: crawlPicture(
      crawl,
      page,
      `entries of ${own} only`,
      `${ids.length} of another ${owner}, ${ids[0]} first`,
    ),
  });
}

const RESULT_ARRAY_RULE = "pagination.result-array";

/** Pagination rule 2: the result array (`data` or `items`) exists and is a list, on every page. */
export const resultArrayCheck = specCheck({
  id: "pagination/result-array",
  rule: RESULT_ARRAY_RULE,
  title: "Every page carries its result array, and it is a list",
  async run(ctx) {
    const findings = await judgeEveryCrawl(ctx, RESULT_ARRAY_RULE, (result, route) => {
      if (result.stop.kind === "not-a-list") {
        return failOn(route.id, `page ${result.pages}: ${result.stop.reason}`, result.stop.evidence);
      }
      return passOn(route.id, crawlNote(result));
    });
    return combine(findings, "listings crawled, every page with a result array");
  },
});

const END_RULE = "pagination.end-is-empty-array";

/**
 * Pagination rule 3: a crawl ends on an empty result array, in a bounded number of pages. A non-empty
 * page without a token also ends it legally (rule 7); a token on the final empty page is legal.
 */
export const endIsEmptyArrayCheck = specCheck({
  id: "pagination/end-is-empty-array",
  rule: END_RULE,
  title: "Every listing ends with an empty result array, in a bounded number of pages",
  async run(ctx) {
    const findings = await judgeEveryCrawl(ctx, END_RULE, (result, route) => {
      const stop = result.stop;
      switch (stop.kind) {
        case "empty-page":
          return passOn(route.id, crawlNote(result));
        case "no-token":
          return {
            verdict: "pass",
            subject: route.id,
            note: `${crawlNote(result)}; stopped on a non-empty page without a token (allowed)`,
          };
        case "never-ends":
          return failOn(route.id, stop.reason, stop.evidence);
        case "first-page-refused":
        case "not-a-list":
        case "token-refused":
        case "token-ignored":
        case "aborted":
          return skipOn(route.id, `the end was not reached: ${describeStop(result)}`);
      }
    });
    return combine(findings, "listings crawled to an empty page");
  },
});

const NO_DUPLICATES_RULE = "pagination.no-duplicates";

/** The failure of a crawl that collected entries twice; `where` names it when it is not the default one. */
const twice = (result: CrawlResult, where: string): SubjectFinding => ({
  verdict: "fail",
  subject: result.route.id,
  reason: `${result.duplicates.count} entries came back twice in ${result.pages} pages${where}`,
  ...(result.duplicates.first ? { evidence: result.duplicates.first } : {}),
});

/**
 * Pagination rules 4 and 6: no entry appears twice in one crawl (ids only are kept, so memory stays flat):
 * the default crawl, and every crawl the completeness checks made of the listing.
 */
export const noDuplicatesCheck = specCheck({
  id: "pagination/no-duplicates",
  rule: NO_DUPLICATES_RULE,
  title: "No entry appears twice in one crawl",
  async run(ctx) {
    const findings = await judgeCrawls(ctx, "default", NO_DUPLICATES_RULE, (result, route) => {
      if (result.stop.kind === "never-ends") {
        // A listing that never ends repeats itself sooner or later: that is its own rule's failure.
        return skipOn(route.id, `the crawl never ended: ${describeStop(result)}`);
      }
      if (result.duplicates.count > 0) return twice(result, "");
      if (result.stop.kind === "not-a-list") {
        return skipOn(route.id, describeStop(result));
      }
      return passOn(route.id, crawlNote(result));
    });
    // Every other crawl the completeness checks made of a listing (other page sizes, oldest first, again):
    // a provider may repeat entries only at one page size or in one order.
    const routes = ctx.servedListings();
    for (const [i, route] of routes.entries()) {
      if (findings[i]?.verdict !== "pass") continue;
      const outcome = await completenessOf(ctx, route);
      const again =
        outcome.kind === "judged" ? outcome.crawls.find((c) => c.duplicates.count > 0) : undefined;
      if (again) findings[i] = twice(again, ` of the crawl at ${again.log.label}`);
    }
    return combine(findings, "listings crawled without a duplicate");
  },
});
