import { combine, skip, specCheck } from "../runner/verdicts.js";
import { judgeAnswered } from "./answered.js";

/** Versioning 2: before the switch-off, v3 routes still answer (their first page is a success). */
export const v3ServedCheck = specCheck({
  id: "versions/v3-served-before-switch-off",
  rule: "versions.v3-served-before-switch-off",
  title: "v3 routes answer before their switch-off",
  async run(ctx) {
    const entry = ctx.contract.timeline.entry("v3-switch-off");
    const v3 = ctx.servedListings().filter((r) => r.version === "v3");
    if (v3.length === 0) {
      return skip(`v3 is switched off on ${ctx.at}${entry ? ` (since ${entry.date})` : ""}`);
    }
    const before = `, before the switch-off${entry ? ` on ${entry.date}` : ""}`;
    return combine(await judgeAnswered(ctx, v3, before), "v3 routes served");
  },
});
