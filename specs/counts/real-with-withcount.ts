import {
  countTimelineIds,
  expectedCounts,
  givesTotals,
  type Route,
  totalsDisagree,
} from "../../contracts/index.js";
import { completenessOf } from "../pagination/completeness.js";
import type { CheckContext, CrawlVariant } from "../runner/context.js";
import { partialLastPageSize } from "../runner/crawl-query.js";
import { type CrawlResult, describeStop, endedLegally } from "../runner/crawler.js";
import { failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import {
  type CountJudge,
  countBreach,
  judgeCountListings,
  judgeFirstPage,
  removedSkip,
} from "./first-page.js";

/**
 * Compares the totals a crawl's pages declared with the entries it counted. When they differ because the
 * listing loses entries (the completeness checks confirmed a loss), the loss is those checks' to report.
 */
async function judgeTotals(
  ctx: CheckContext,
  route: Route,
  result: CrawlResult,
  variant: CrawlVariant,
): Promise<SubjectFinding> {
  const subject = `${route.id} ${variant === "with-count" ? "withCount=true" : route.countDeprecation ? "(counts always real)" : "(totals given)"}`;
  if (!endedLegally(result.stop)) {
    return skipOn(subject, `the crawl did not end cleanly: ${describeStop(result)}`);
  }
  const first = result.totals.first;
  const evidence = result.totals.firstEvidence;
  if (!first || !evidence) return skipOn(subject, "no page was read");
  const shape = countBreach(ctx, route, { pagination: first }, "real");
  if (shape) {
    const reason = `real totals were expected: ${shape.diagnostics[0] ?? ""}`;
    return failOn(subject, reason, { ...evidence, diagnostics: shape.diagnostics });
  }
  const problems = totalsDisagree(first, result.entries);
  if (first.totalCount !== result.entries) {
    const completeness = await completenessOf(ctx, route);
    const lost = completeness.kind === "judged" ? completeness.judged.losses[0] : undefined;
    if (lost) {
      return skipOn(
        subject,
        `the listing loses entries while it is crawled (see ${lost.rule}), so its totals cannot be compared with a crawl`,
      );
    }
  }
  if (problems.length > 0) {
    return failOn(subject, problems.join("; "), { ...evidence, diagnostics: problems });
  }
  if (result.totals.disagreement) {
    return failOn(subject, "a later page declared other totals than the first", result.totals.disagreement);
  }
  return passOn(subject, `${route.id}: totalCount ${String(first.totalCount)} = ${result.entries} crawled`);
}

/**
 * The crawl whose totals are judged where every crawl has them: the default one, unless its last page is
 * full (the count divides the page size), then one at a size where it is partial, so that totalPages
 * rounded down shows.
 */
async function partialCrawl(ctx: CheckContext, route: Route): Promise<CrawlResult> {
  const byDefault = await ctx.crawl(route, "default");
  const size =
    ctx.options.pageSize === undefined
      ? partialLastPageSize(byDefault.entries, route.pagination?.defaultPageSize ?? 20)
      : undefined;
  return size === undefined ? byDefault : ctx.crawlSized(route, size);
}

/** The totals of one listing at its dated rules, crawled with withCount=true where it exists. */
const judgeListing: CountJudge = async (ctx, route, rules, timeline) => {
  switch (rules.countMode) {
    case "not-applicable": {
      // A listing outside the count deprecation (an organization's forms, the partner's organizations):
      // the seed lets a listing give -1 ("not provided"), so totals are judged only where its first page
      // gives both.
      const result = await partialCrawl(ctx, route);
      if (result.totals.first && !givesTotals(result.totals.first))
        return [skipOn(route.id, "its first page gives no totals (-1 or none), as the seed allows")];
      return [await judgeTotals(ctx, route, result, "default")];
    }
    case "absent":
      return [removedSkip(ctx, route)];
    case "always-real":
      return [await judgeTotals(ctx, route, await partialCrawl(ctx, route), "default")];
    case "default-true":
      for (const id of countTimelineIds(rules)) timeline.add(id);
      return [
        await judgeTotals(ctx, route, await ctx.crawl(route, "with-count"), "with-count"),
        await judgeFirstPage(ctx, route, undefined, expectedCounts(rules, undefined)),
      ];
    case "default-false":
      for (const id of countTimelineIds(rules)) timeline.add(id);
      return [await judgeTotals(ctx, route, await ctx.crawl(route, "with-count"), "with-count")];
  }
};

/**
 * Count deprecation and pagination rule 6: with `withCount=true` (or before `withCount` existed), until
 * the count fields are removed, the totals agree with what a crawl counts. While the default is still
 * true, a first page without `withCount` carries real totals too. The listings the deprecation leaves
 * alone are judged at every date, wherever they give totals.
 */
export const realWithWithCountCheck = specCheck({
  id: "counts/real-with-withcount",
  rule: "counts.real-with-withcount",
  title: "With withCount=true the totals agree with a crawl",
  run: (ctx) =>
    judgeCountListings(ctx, judgeListing, "listings whose totals match a crawl", ctx.servedListings()),
});
