import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { judgeFirstPage } from "./first-page.js";

const RULE = "counts.absent-after-removal";

/**
 * Count deprecation, step 3 (planned): after the removal date, `totalCount` and `totalPages` are gone
 * from the six listing routes, with or without `withCount=true`.
 */
export const absentAfterRemovalCheck: SpecCheck = {
  id: "counts/absent-after-removal",
  group: "counts",
  rule: RULE,
  title: "No count fields at all after their removal",
  async run(ctx) {
    const findings: Finding[] = [];
    const timeline = new Set<string>();
    const removal = ctx.contract.timeline.entry("count-fields-removed");
    for (const route of ctx.servedListings().filter((r) => r.countDeprecation)) {
      const rules = ctx.datedRulesAt(route);
      if (rules.countMode !== "absent") {
        const when = removal ? ` (${removal.date}, ${removal.status})` : "";
        findings.push({
          kind: "skip",
          subject: route.id,
          reason: `the removal${when} is not in force on ${ctx.at}`,
        });
        continue;
      }
      if (removal) timeline.add(removal.id);
      findings.push(await judgeFirstPage(ctx, route, undefined, "absent"));
      findings.push(await judgeFirstPage(ctx, route, true, "absent"));
    }
    return combine(findings, "first pages without count fields", [...timeline]);
  },
};
