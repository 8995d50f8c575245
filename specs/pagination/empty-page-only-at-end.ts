import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { judgeCompletenessRule } from "./completeness.js";

const RULE = "pagination.empty-page-only-at-end";

/**
 * Pagination rule 3: a client stops at the first empty page, so an empty page before the last entry loses every entry after it. A loss is reported only when a fresh crawl confirms it.
 */
export const emptyPageOnlyAtEndCheck: SpecCheck = {
  id: "pagination/empty-page-only-at-end",
  group: "pagination",
  rule: RULE,
  title: "An empty page comes only at the end",
  async run(ctx) {
    const findings: Finding[] = [];
    for (const route of ctx.servedListings()) findings.push(await judgeCompletenessRule(ctx, RULE, route));
    return combine(findings, "listings complete across page sizes");
  },
};
