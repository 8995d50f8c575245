import { describeStop } from "../runner/crawl-stops.js";
import { combine, type SpecCheck } from "../runner/verdicts.js";
import { crawlNote, judgeCrawls } from "./listing-findings.js";

const RULE = "pagination.no-duplicates";

/** Pagination rules 4 and 6: no entry appears twice in one crawl (ids only are kept, so memory stays flat). */
export const noDuplicatesCheck: SpecCheck = {
  id: "pagination/no-duplicates",
  group: "pagination",
  rule: RULE,
  title: "No entry appears twice in one crawl",
  async run(ctx) {
    const findings = await judgeCrawls(ctx, "default", RULE, (result, route) => {
      if (result.stop.kind === "never-ends") {
        // A listing that never ends repeats itself sooner or later: that is its own rule's failure.
        return { kind: "skip", subject: route.id, reason: `the crawl never ended: ${describeStop(result)}` };
      }
      if (result.duplicates.count > 0) {
        return {
          kind: "fail",
          subject: route.id,
          reason: `${result.duplicates.count} entries came back twice in ${result.pages} pages`,
          ...(result.duplicates.first ? { evidence: result.duplicates.first } : {}),
        };
      }
      if (result.stop.kind === "not-a-list") {
        return { kind: "skip", subject: route.id, reason: describeStop(result) };
      }
      return { kind: "pass", subject: route.id, note: crawlNote(result) };
    });
    return combine(findings, "listings crawled without a duplicate");
  },
};
