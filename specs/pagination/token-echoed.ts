import { describeStop } from "../runner/crawl-stops.js";
import { combine, type SpecCheck } from "../runner/verdicts.js";
import { crawlNote, judgeEveryCrawl } from "./listing-findings.js";

const RULE = "pagination.token-echoed";

/**
 * Pagination rules 4 and 5: the continuation token, sent back byte for byte (encoded once, whatever it
 * holds), is accepted and leads to the next page. A crawl that ends before the end of the data is
 * the completeness checks' (pagination.complete and the two rules of an early end).
 */
export const tokenEchoedCheck: SpecCheck = {
  id: "pagination/token-echoed",
  group: "pagination",
  rule: RULE,
  title: "Tokens sent back byte for byte lead to the next page",
  async run(ctx) {
    const findings = await judgeEveryCrawl(ctx, RULE, (result, route) => {
      const stop = result.stop;
      switch (stop.kind) {
        case "token-refused":
          return {
            kind: "fail",
            subject: route.id,
            reason: `the token sent back exactly as received was refused with ${stop.evidence.response?.status ?? "?"} (page ${result.pages})`,
            evidence: stop.evidence,
          };
        case "token-ignored":
          return {
            kind: "fail",
            subject: route.id,
            reason: "the token did not lead to the next page: the first page came back",
            evidence: stop.evidence,
          };
        case "not-a-list":
        case "first-page-refused":
        case "aborted":
          return { kind: "skip", subject: route.id, reason: describeStop(result) };
        case "empty-page":
        case "no-token":
        case "never-ends":
          return result.tokens.sent > 0
            ? { kind: "pass", subject: route.id, note: crawlNote(result) }
            : { kind: "skip", subject: route.id, reason: "one page only: no token to send back" };
      }
    });
    return combine(findings, "listings crawled with their tokens sent back as received");
  },
};
