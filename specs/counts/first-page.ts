import {
  type DatedRules,
  type ExpectedCounts,
  judgeSchema,
  paginationOf,
  type Route,
} from "../../contracts/index.js";
import { type CheckContext, readerGet } from "../runner/context.js";
import { evidenceOf } from "../runner/excerpt.js";
import { isSuccess, parseJson } from "../runner/http.js";
import type { CheckResult } from "../runner/types.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn } from "../runner/verdicts.js";

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
