import {
  countTimeline,
  type DatedRules,
  type ExpectedCounts,
  expectedCounts,
  judgeSchema,
  paginationOf,
  type Route,
} from "../../contracts/index.js";
import { type CheckContext, readerGet } from "../runner/context.js";
import { evidenceOf, isSuccess, parseJson } from "../runner/http.js";
import type { CheckResult } from "../runner/types.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";

/** How one count check judges one listing at its dated rules, adding the timeline entries it relies on. */
export type CountJudge = (
  ctx: CheckContext,
  route: Route,
  rules: DatedRules,
  timeline: Set<string>,
) => Promise<SubjectFinding[]>;

/**
 * Runs `judge` on `listings` (by default every listing served at the date that the count deprecation
 * concerns), and combines the findings under `what`, with the timeline entries the judge relied on.
 */
export async function judgeCountListings(
  ctx: CheckContext,
  judge: CountJudge,
  what: string,
  listings: readonly Route[] = ctx.servedListings().filter((r) => r.countDeprecation),
): Promise<CheckResult> {
  const findings: SubjectFinding[] = [];
  const timeline = new Set<string>();
  for (const route of listings) {
    findings.push(...(await judge(ctx, route, ctx.datedRulesAt(route), timeline)));
  }
  return combine(findings, what, [...timeline]);
}

/** The skip of a listing whose count fields are removed at the date: counts.absent-after-removal judges it. */
export function removedSkip(ctx: CheckContext, route: Route): SubjectFinding {
  return skipOn(route.id, `the count fields are removed on ${ctx.at} (see counts.absent-after-removal)`);
}

/** What a page's counts break of the rule `expected` counts belong to, by the one schema judge. */
export function countBreach(ctx: CheckContext, route: Route, body: unknown, expected: ExpectedCounts) {
  return judgeSchema(ctx.contract.schemas, route, body, expected).find((b) => b.rule.startsWith("counts."));
}

/**
 * Reads the first page of a listing with `withCount` as given (absent when `undefined`) and compares its
 * counts with what the timeline expects at the date.
 */
export async function judgeFirstPage(
  ctx: CheckContext,
  route: Route,
  withCount: boolean | undefined,
  expected: ExpectedCounts,
): Promise<SubjectFinding> {
  const subject = `${route.id} ${withCount === undefined ? "without withCount" : `withCount=${withCount}`}`;
  const query = withCount === undefined ? "" : `?withCount=${withCount}`;
  const exchange = await readerGet(ctx, `${await ctx.urlOf(route)}${query}`);
  if (!isSuccess(exchange.status)) {
    return skipOn(subject, `the first page was refused with ${exchange.status}`);
  }
  const parsed = parseJson(exchange);
  if (!parsed.ok) return skipOn(subject, parsed.why);
  const breach = countBreach(ctx, route, parsed.value, expected);
  if (!breach) return passOn(subject);
  return failOn(subject, breach.reason, evidenceOf(exchange, paginationOf(parsed.value), breach.diagnostics));
}

/** The first pages of one listing, without and with withCount=true, once the removal is in force. */
const judgeRemoved: CountJudge = async (ctx, route, rules, timeline) => {
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
export const absentAfterRemovalCheck = specCheck({
  id: "counts/absent-after-removal",
  rule: "counts.absent-after-removal",
  title: "No count fields at all after their removal",
  run: (ctx) => judgeCountListings(ctx, judgeRemoved, "first pages without count fields"),
});

/**
 * The first pages of one listing that must hold -1 at the date, none before withCount exists: each rests
 * on the timeline entry that began the count mode in force.
 */
const judgeMinusOne: CountJudge = async (ctx, route, rules, timeline) => {
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
export const minusOneCheck = specCheck({
  id: "counts/minus-one-without-withcount",
  rule: "counts.minus-one-without-withcount",
  title: "Counts hold -1 unless withCount=true",
  run: (ctx) =>
    judgeCountListings(ctx, judgeMinusOne, "first pages with -1 counts where withCount is not true"),
});
