import { type CrawlResult, describeStop } from "../runner/crawler.js";
import { combine, type SpecCheck, type SubjectFinding } from "../runner/verdicts.js";
import { completenessOf } from "./completeness.js";
import { crawlNote, judgeCrawls } from "./listing-findings.js";

const RULE = "pagination.no-duplicates";

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
export const noDuplicatesCheck: SpecCheck = {
  id: "pagination/no-duplicates",
  group: "pagination",
  rule: RULE,
  title: "No entry appears twice in one crawl",
  async run(ctx) {
    const findings = await judgeCrawls(ctx, "default", RULE, (result, route) => {
      if (result.stop.kind === "never-ends") {
        // A listing that never ends repeats itself sooner or later: that is its own rule's failure.
        return {
          verdict: "skip",
          subject: route.id,
          reason: `the crawl never ended: ${describeStop(result)}`,
        };
      }
      if (result.duplicates.count > 0) return twice(result, "");
      if (result.stop.kind === "not-a-list") {
        return { verdict: "skip", subject: route.id, reason: describeStop(result) };
      }
      return { verdict: "pass", subject: route.id, reason: crawlNote(result) };
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
};
