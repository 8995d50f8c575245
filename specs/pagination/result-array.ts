import { combine, type SpecCheck } from "../runner/verdicts.js";
import { crawlNote, judgeEveryCrawl } from "./listing-findings.js";

const RULE = "pagination.result-array";

/** Pagination rule 2: the result array (`data` or `items`) exists and is a list, on every page. */
export const resultArrayCheck: SpecCheck = {
  id: "pagination/result-array",
  group: "pagination",
  rule: RULE,
  title: "Every page carries its result array, and it is a list",
  async run(ctx) {
    const findings = await judgeEveryCrawl(ctx, RULE, (result, route) => {
      if (result.stop.kind === "not-a-list") {
        return {
          verdict: "fail",
          subject: route.id,
          reason: `page ${result.pages}: ${result.stop.reason}`,
          evidence: result.stop.evidence,
        };
      }
      return { verdict: "pass", subject: route.id, reason: crawlNote(result) };
    });
    return combine(findings, "listings crawled, every page with a result array");
  },
};
