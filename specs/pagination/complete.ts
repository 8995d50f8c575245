import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { judgeCompletenessRule } from "./completeness.js";

const RULE = "pagination.complete";

/**
 * Pagination rules 4 and 6: a client that follows the tokens collects every entry. Crawled at three page sizes, the listing must give the same entries, none lost between two pages. A loss is reported only when a fresh crawl confirms it.
 */
export const completeCheck: SpecCheck = {
  id: "pagination/complete",
  group: "pagination",
  rule: RULE,
  title: "Every entry comes in a crawl, whatever the page size",
  async run(ctx) {
    const findings: Finding[] = [];
    for (const route of ctx.servedListings()) findings.push(await judgeCompletenessRule(ctx, RULE, route));
    return combine(findings, "listings complete across page sizes");
  },
};
