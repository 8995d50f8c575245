import { countTimeline, expectedCounts } from "../../contracts/index.js";
import { type SpecCheck, skipOn } from "../runner/verdicts.js";
import { type CountJudge, judgeCountListings, judgeFirstPage, removedSkip } from "./first-page.js";

/**
 * The first pages of one listing that must hold -1 at the date, none before withCount exists: each rests
 * on the timeline entry that began the count mode in force.
 */
const judgeListing: CountJudge = async (ctx, route, rules, timeline) => {
  switch (rules.countMode) {
    case "not-applicable":
    case "always-real":
      return [skipOn(route.id, `withCount does not exist yet on ${ctx.at}`)];
    case "absent":
      return [removedSkip(ctx, route)];
    case "default-true":
    case "default-false":
      for (const id of countTimeline(rules, ctx.contract.timeline)) timeline.add(id);
      return [
        ...(rules.countMode === "default-false"
          ? [await judgeFirstPage(ctx, route, undefined, expectedCounts(rules, undefined))]
          : []),
        await judgeFirstPage(ctx, route, false, expectedCounts(rules, false)),
      ];
  }
};

/**
 * Count deprecation, step 2: after the default flip, `totalCount` and `totalPages` hold -1 unless
 * `withCount=true` (absent and `withCount=false` alike). While the default is still true, an explicit
 * `withCount=false` gives -1.
 */
export const minusOneCheck: SpecCheck = {
  id: "counts/minus-one-without-withcount",
  group: "counts",
  rule: "counts.minus-one-without-withcount",
  title: "Counts hold -1 unless withCount=true",
  run: (ctx) =>
    judgeCountListings(ctx, judgeListing, "first pages with -1 counts where withCount is not true"),
};
