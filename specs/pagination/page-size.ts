import { pageSizeLimit, type Route, readRoutePage } from "../../contracts/index.js";
import { type CheckContext, readerGet } from "../runner/context.js";
import { evidenceOf, isSuccess, parseJson } from "../runner/http.js";
import { combine, failOn, passOn, type SubjectFinding, specCheck } from "../runner/verdicts.js";
import { SMALL_PAGE_SIZE as SMALL_PAGE } from "./crawl-plan.js";
import { judgeCrawls } from "./listing-findings.js";

const RULE = "pagination.page-size";

async function probe(ctx: CheckContext, route: Route, pageSize: number) {
  const url = `${await ctx.urlOf(route)}?pageSize=${encodeURIComponent(String(pageSize))}`;
  return readerGet(ctx, url);
}

/** A small `pageSize` is honoured (no page larger), and one above the maximum is refused. */
async function probeRoute(ctx: CheckContext, route: Route): Promise<SubjectFinding[]> {
  const findings: SubjectFinding[] = [];
  const small = await probe(ctx, route, SMALL_PAGE);
  if (isSuccess(small.status)) {
    const parsed = parseJson(small);
    const page = readRoutePage(parsed.ok ? parsed.value : undefined, route);
    // The page judge's limit, as on every crawled page: the smaller of the size asked and the one declared.
    const limit = page.ok ? (pageSizeLimit(page, SMALL_PAGE) ?? SMALL_PAGE) : SMALL_PAGE;
    if (page.ok && page.entries.length > limit) {
      const declared = limit < SMALL_PAGE ? ` (the page declares pageSize ${limit})` : "";
      findings.push(
        failOn(
          `${route.id} pageSize=${SMALL_PAGE}`,
          `a page of ${page.entries.length} entries came back for pageSize=${SMALL_PAGE}${declared}`,
          evidenceOf(small, { entries: page.entries.length, pagination: page.pagination }),
        ),
      );
    }
  }
  const max = route.pagination?.maxPageSize ?? 100;
  const above = await probe(ctx, route, max + 1);
  if (isSuccess(above.status)) {
    findings.push(
      failOn(
        `${route.id} pageSize=${max + 1}`,
        `pageSize=${max + 1} was accepted (${above.status}); above ${max} it must be refused`,
        evidenceOf(above, (parseJson(above) as { value?: { pagination?: unknown } }).value?.pagination),
      ),
    );
  }
  return findings;
}

/** Limits (page size): no page larger than its `pageSize`, and `pageSize` above 100 refused. */
export const pageSizeCheck = specCheck({
  id: "pagination/page-size",
  rule: RULE,
  title: "No page is larger than its pageSize; pageSize above 100 is refused",
  async run(ctx) {
    const findings = await judgeCrawls(ctx, "default", RULE, (result, route) =>
      result.oversized.count > 0
        ? {
            verdict: "fail",
            subject: route.id,
            reason: `${result.oversized.count} of ${result.pages} pages held more entries than their pageSize`,
            ...(result.oversized.first ? { evidence: result.oversized.first } : {}),
          }
        : passOn(route.id, `${route.id}: ${result.pages} pages within their pageSize`),
    );
    for (const route of ctx.servedListings()) {
      const crawled = findings.find((f) => f.subject === route.id);
      if (crawled?.verdict === "skip") continue;
      findings.push(...(await probeRoute(ctx, route)));
    }
    return combine(
      findings,
      `listings within their pageSize (and pageSize=${SMALL_PAGE} honoured, 101 refused)`,
    );
  },
});
