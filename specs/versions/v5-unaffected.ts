import { combine, specCheck } from "../runner/verdicts.js";
import { judgeAnswered } from "./answered.js";

/** Versioning 2: no v5 route is affected by the v3 switch-off; every v5 listing answers, on any date. */
export const v5UnaffectedCheck = specCheck({
  id: "versions/v5-unaffected",
  rule: "versions.v5-unaffected",
  title: "v5 routes answer on both sides of the v3 switch-off",
  async run(ctx) {
    const v5 = ctx.contract.routes.listings().filter((r) => r.version === "v5");
    return combine(await judgeAnswered(ctx, v5), "v5 listings served");
  },
});
