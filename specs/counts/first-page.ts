import {
  countFindingsOf,
  type DatedRules,
  type Diagnostic,
  type ExpectedCounts,
  type Route,
} from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { evidenceOf } from "../runner/excerpt.js";
import { isSuccess, parseJson } from "../runner/http.js";
import type { CheckResult } from "../runner/types.js";
import { combine, type Finding } from "../runner/verdicts.js";

/** Only the sentences about `totalCount` and `totalPages`: the rest of the page is other rules' business. */
export function countDiagnostics(
  ctx: CheckContext,
  route: Route,
  body: unknown,
  expected: ExpectedCounts,
): Diagnostic[] {
  return countFindingsOf(ctx.contract.schemas.validatePage(route, body, expected));
}

/** How one count check judges one listing at its dated rules, adding the timeline entries it relies on. */
export type CountJudge = (
  ctx: CheckContext,
  route: Route,
  rules: DatedRules,
  timeline: Set<string>,
) => Promise<Finding[]>;

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
  const findings: Finding[] = [];
  const timeline = new Set<string>();
  for (const route of listings) {
    findings.push(...(await judge(ctx, route, ctx.datedRulesAt(route), timeline)));
  }
  return combine(findings, what, [...timeline]);
}

/** The skip of a listing whose count fields are removed at the date: counts.absent-after-removal judges it. */
export function removedSkip(ctx: CheckContext, route: Route): Finding {
  return {
    kind: "skip",
    subject: route.id,
    reason: `the count fields are removed on ${ctx.at} (see counts.absent-after-removal)`,
  };
}

/** Where a finding's expectation comes from: the timeline entries in force for the route. */
export function timelineIds(rules: DatedRules): string[] {
  return rules.inForce.filter((e) => e.affects === "count-deprecation").map((e) => e.id);
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
): Promise<Finding> {
  const subject = `${route.id} ${withCount === undefined ? "without withCount" : `withCount=${withCount}`}`;
  const query = withCount === undefined ? "" : `?withCount=${withCount}`;
  const exchange = await ctx.http.send({
    method: "GET",
    url: `${await ctx.urlOf(route)}${query}`,
    authorization: await ctx.authorization("reader"),
  });
  if (!isSuccess(exchange.status)) {
    return { kind: "skip", subject, reason: `the first page was refused with ${exchange.status}` };
  }
  const parsed = parseJson(exchange);
  if (!parsed.ok) return { kind: "skip", subject, reason: parsed.why };
  const pagination = (parsed.value as { pagination?: unknown } | null)?.pagination;
  const findings = countDiagnostics(ctx, route, parsed.value, expected);
  if (findings.length > 0) {
    return {
      kind: "fail",
      subject,
      reason: `counts must be ${describeExpected(expected)}: ${findings[0]?.message ?? ""}`,
      evidence: evidenceOf(
        exchange,
        pagination,
        findings.map((d) => d.message),
      ),
    };
  }
  return { kind: "pass", subject };
}

export function describeExpected(expected: ExpectedCounts): string {
  switch (expected) {
    case "real":
      return "real totals";
    case "minus-one":
      return "-1";
    case "absent":
      return "absent";
    case "not-applicable":
      return "anything";
  }
}
