import { readerGet } from "../runner/context.js";
import { evidenceOf, isSuccess } from "../runner/http.js";
import { combine, failOn, passOn, type SubjectFinding, skip, specCheck } from "../runner/verdicts.js";

/** Versioning 2: after the switch-off, v3 routes no longer answer (any non-2xx status is accepted). */
export const v3SwitchedOffCheck = specCheck({
  id: "versions/v3-switched-off",
  rule: "versions.v3-switched-off",
  title: "v3 routes do not answer after their switch-off",
  async run(ctx) {
    const entry = ctx.contract.timeline.entry("v3-switch-off");
    if (!entry || !ctx.contract.timeline.inForce("v3-switch-off", ctx.at)) {
      return skip(`the v3 switch-off${entry ? ` (${entry.date})` : ""} is not in force on ${ctx.at}`);
    }
    const findings: SubjectFinding[] = [];
    for (const route of ctx.contract.routes.listings().filter((r) => r.version === "v3")) {
      const exchange = await readerGet(ctx, await ctx.urlOf(route));
      const after = `answered ${exchange.status} on ${ctx.at}, after the switch-off on ${entry.date}`;
      findings.push(
        isSuccess(exchange.status)
          ? failOn(route.id, after, evidenceOf(exchange))
          : passOn(route.id, `${route.id}: ${exchange.status}`),
      );
    }
    return combine(findings, "v3 routes switched off", [entry.id]);
  },
});
