import { describeStop } from "../runner/crawler.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";

/**
 * Resources and their fields: every page of every listing crawled validates against the route's
 * schema (entries, pagination object, dates with fraction and offset). Counts and the result array
 * itself are left to their own rules.
 */
export const listingPagesCheck = specCheck({
  id: "schemas/listing-pages",
  rule: "schema.responses",
  title: "Every listing page validates against its schema",
  async run(ctx) {
    const findings: SubjectFinding[] = [];
    // Every listing crawled at once (the run's --concurrency bounds the requests), judged in order.
    await Promise.all(ctx.servedListings().map((route) => ctx.crawl(route, "default")));
    for (const route of ctx.servedListings()) {
      const result = await ctx.crawl(route, "default");
      if (result.stop.kind === "first-page-refused" || result.pages === 0) {
        findings.push(skipOn(route.id, describeStop(result)));
      } else if (result.schema.first) {
        const reason = `${result.schema.pages} of ${result.pages} pages do not validate: ${result.schema.first.diagnostics?.[0] ?? ""}`;
        findings.push(failOn(route.id, reason, result.schema.first));
      } else {
        findings.push(passOn(route.id, `${route.id}: ${result.pages} pages`));
      }
    }
    return combine(findings, "listings whose every page validates");
  },
});
