import { describeStop } from "../runner/crawl-stops.js";
import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";

const RULE = "versions.v3-served-before-switch-off";

/** Versioning 2: before the switch-off, v3 routes still answer (their first page is a success). */
export const v3ServedCheck: SpecCheck = {
  id: "versions/v3-served-before-switch-off",
  group: "versions",
  rule: RULE,
  title: "v3 routes answer before their switch-off",
  async run(ctx) {
    const entry = ctx.contract.timeline.entry("v3-switch-off");
    const v3 = ctx.servedListings().filter((r) => r.version === "v3");
    if (v3.length === 0) {
      return {
        status: "skip",
        reason: `v3 is switched off on ${ctx.at}${entry ? ` (since ${entry.date})` : ""}`,
      };
    }
    const findings: Finding[] = [];
    for (const route of v3) {
      const result = await ctx.crawl(route, "default");
      findings.push(
        result.stop.kind === "first-page-refused"
          ? {
              kind: "fail",
              subject: route.id,
              reason: `refused with ${result.stop.evidence.response?.status ?? "?"} on ${ctx.at}, before the switch-off${entry ? ` on ${entry.date}` : ""}`,
              evidence: result.stop.evidence,
            }
          : { kind: "pass", subject: route.id, note: `${route.id}: ${describeStop(result)}` },
      );
    }
    return combine(findings, "v3 routes served");
  },
};
