import { describeStop } from "../runner/crawler.js";
import { combine, type SpecCheck } from "../runner/verdicts.js";
import { crawlNote, judgeEveryCrawl } from "./listing-findings.js";

const RULE = "pagination.end-is-empty-array";

/**
 * Pagination rule 3: a crawl ends on an empty result array, in a bounded number of pages. A non-empty
 * page without a token also ends it legally (rule 7); a token on the final empty page is legal.
 */
export const endIsEmptyArrayCheck: SpecCheck = {
  id: "pagination/end-is-empty-array",
  group: "pagination",
  rule: RULE,
  title: "Every listing ends with an empty result array, in a bounded number of pages",
  async run(ctx) {
    const findings = await judgeEveryCrawl(ctx, RULE, (result, route) => {
      const stop = result.stop;
      switch (stop.kind) {
        case "empty-page":
          return { verdict: "pass", subject: route.id, reason: crawlNote(result) };
        case "no-token":
          return {
            verdict: "pass",
            subject: route.id,
            note: `${crawlNote(result)}; stopped on a non-empty page without a token (allowed)`,
          };
        case "never-ends":
          return { verdict: "fail", subject: route.id, reason: stop.reason, evidence: stop.evidence };
        case "first-page-refused":
        case "not-a-list":
        case "token-refused":
        case "token-ignored":
        case "aborted":
          return {
            verdict: "skip",
            subject: route.id,
            reason: `the end was not reached: ${describeStop(result)}`,
          };
      }
    });
    return combine(findings, "listings crawled to an empty page");
  },
};
