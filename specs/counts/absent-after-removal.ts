import { type SpecCheck, skipOn } from "../runner/verdicts.js";
import { type CountJudge, judgeCountListings, judgeFirstPage } from "./first-page.js";

/** The first pages of one listing, without and with withCount=true, once the removal is in force. */
const judgeListing: CountJudge = async (ctx, route, rules, timeline) => {
  const removal = ctx.contract.timeline.entry("count-fields-removed");
  if (rules.countMode !== "absent") {
    const when = removal ? ` (${removal.date}, ${removal.status})` : "";
    return [skipOn(route.id, `the removal${when} is not in force on ${ctx.at}`)];
  }
  if (removal) timeline.add(removal.id);
  return [
    await judgeFirstPage(ctx, route, undefined, "absent"),
    await judgeFirstPage(ctx, route, true, "absent"),
  ];
};

/**
 * Count deprecation, step 3 (planned): after the removal date, `totalCount` and `totalPages` are gone
 * from the six listing routes, with or without `withCount=true`.
 */
export const absentAfterRemovalCheck: SpecCheck = {
  id: "counts/absent-after-removal",
  group: "counts",
  rule: "counts.absent-after-removal",
  title: "No count fields at all after their removal",
  run: (ctx) => judgeCountListings(ctx, judgeListing, "first pages without count fields"),
};
