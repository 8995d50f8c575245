import { describeStop } from "../runner/crawl-stops.js";
import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";

const RULE = "versions.v5-unaffected";

/** Versioning 2: no v5 route is affected by the v3 switch-off; every v5 listing answers, on any date. */
export const v5UnaffectedCheck: SpecCheck = {
  id: "versions/v5-unaffected",
  group: "versions",
  rule: RULE,
  title: "v5 routes answer on both sides of the v3 switch-off",
  async run(ctx) {
    const findings: Finding[] = [];
    for (const route of ctx.contract.routes.listings().filter((r) => r.version === "v5")) {
      const result = await ctx.crawl(route, "default");
      findings.push(
        result.stop.kind === "first-page-refused"
          ? {
              kind: "fail",
              subject: route.id,
              reason: `refused with ${result.stop.evidence.response?.status ?? "?"} on ${ctx.at}`,
              evidence: result.stop.evidence,
            }
          : { kind: "pass", subject: route.id, note: `${route.id}: ${describeStop(result)}` },
      );
    }
    return combine(findings, "v5 listings served");
  },
};
