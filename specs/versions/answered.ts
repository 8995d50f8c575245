import type { Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { describeStop } from "../runner/crawler.js";
import type { SubjectFinding } from "../runner/verdicts.js";

/**
 * Crawls each route by default: a refused first page fails it (`refused with STATUS on DATE`, then
 * `context`), any other crawl passes it, with how the crawl ended.
 */
export async function judgeAnswered(
  ctx: CheckContext,
  routes: readonly Route[],
  context = "",
): Promise<SubjectFinding[]> {
  const findings: SubjectFinding[] = [];
  for (const route of routes) {
    const result = await ctx.crawl(route, "default");
    findings.push(
      result.stop.kind === "first-page-refused"
        ? {
            verdict: "fail",
            subject: route.id,
            reason: `refused with ${result.stop.evidence.response?.status ?? "?"} on ${ctx.at}${context}`,
            evidence: result.stop.evidence,
          }
        : { verdict: "pass", subject: route.id, reason: `${route.id}: ${describeStop(result)}` },
    );
  }
  return findings;
}
