import { expectedCounts } from "../../contracts/index.js";
import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { judgeFirstPage } from "./first-page.js";

const RULE = "counts.minus-one-without-withcount";

function addEntry(ids: Set<string>, id: string | undefined): void {
  if (id !== undefined) ids.add(id);
}

/**
 * Count deprecation, step 2: after the default flip, `totalCount` and `totalPages` hold -1 unless
 * `withCount=true` (absent and `withCount=false` alike). While the default is still true, an explicit
 * `withCount=false` gives -1.
 */
export const minusOneCheck: SpecCheck = {
  id: "counts/minus-one-without-withcount",
  group: "counts",
  rule: RULE,
  title: "Counts hold -1 unless withCount=true",
  async run(ctx) {
    const findings: Finding[] = [];
    const timeline = new Set<string>();
    for (const route of ctx.servedListings().filter((r) => r.countDeprecation)) {
      const rules = ctx.datedRulesAt(route);
      switch (rules.countMode) {
        case "not-applicable":
        case "always-real":
          findings.push({
            kind: "skip",
            subject: route.id,
            reason: `withCount does not exist yet on ${ctx.at}`,
          });
          break;
        case "absent":
          findings.push({
            kind: "skip",
            subject: route.id,
            reason: `the count fields are removed on ${ctx.at} (see counts.absent-after-removal)`,
          });
          break;
        case "default-true":
          addEntry(timeline, ctx.contract.timeline.entry("withcount-introduced")?.id);
          findings.push(await judgeFirstPage(ctx, route, false, expectedCounts(rules, false)));
          break;
        case "default-false":
          addEntry(timeline, ctx.contract.timeline.entry("withcount-default-false")?.id);
          findings.push(await judgeFirstPage(ctx, route, undefined, expectedCounts(rules, undefined)));
          findings.push(await judgeFirstPage(ctx, route, false, expectedCounts(rules, false)));
          break;
      }
    }
    return combine(findings, "first pages with -1 counts where withCount is not true", [...timeline]);
  },
};
