import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { judgeCompletenessRule } from "./completeness.js";

const RULE = "pagination.token-until-end";

/**
 * Pagination rule 7: a client may stop at a non-empty page without a token, so such a page before the last entry loses every entry after it. A loss is reported only when a fresh crawl confirms it.
 */
export const tokenUntilEndCheck: SpecCheck = {
  id: "pagination/token-until-end",
  group: "pagination",
  rule: RULE,
  title: "A non-empty page carries a token until the end",
  async run(ctx) {
    const findings: Finding[] = [];
    for (const route of ctx.servedListings()) findings.push(await judgeCompletenessRule(ctx, RULE, route));
    return combine(findings, "listings complete across page sizes");
  },
};
