import type { Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { describeStop } from "../runner/crawler.js";
import { failOn, passOn, type SubjectFinding } from "../runner/verdicts.js";

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
    const { stop } = result;
    if (stop.kind === "first-page-refused") {
      const status = stop.evidence.response?.status ?? "?";
      findings.push(failOn(route.id, `refused with ${status} on ${ctx.at}${context}`, stop.evidence));
    } else findings.push(passOn(route.id, `${route.id}: ${describeStop(result)}`));
  }
  return findings;
}
