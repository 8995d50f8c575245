import {
  type Contract,
  countsOf,
  countTimeline,
  datedCountChange,
  expectedCounts,
  givesTotals,
  judgePage,
  judgeSchema,
  queryBoolean,
  readRoutePage,
  totalsDisagree,
} from "../../contracts/index.js";
import type { HttpClient, HttpRequest } from "../runner/http.js";
import { evidenceOf } from "../runner/http.js";
import { followToEnd, keepsRecordedEntries } from "./crawls.js";
import type { Exchange, Judgement } from "./finding.js";
import type { ListingCrawl, TargetPage } from "./listings.js";

/**
 * Judges one page of a listing by the pagination and count rules, as verify's crawl does: the result
 * array, the schema at the date, the page size, no entry twice, the token leading on. Adds the page to its
 * crawl, and to the crawl's log the whole-crawl judges read, and returns it (`undefined` when it is no page).
 */
export function judgeListingPage(
  exchange: Exchange,
  judgement: Judgement,
  crawl: ListingCrawl,
  contract: Contract,
): TargetPage | undefined {
  const { route, rules, target, targetBody: body, step } = exchange;
  if (!route?.pagination || !rules) return undefined;
  const read = readRoutePage(body, route);
  if (!read.ok) {
    judgement.fail(
      "pagination.result-array",
      body === undefined ? "the page is not JSON" : read.why,
      evidenceOf(target),
    );
    crawl.broken = `(${step.id}) had no result array`;
    return undefined;
  }
  const withCount = queryBoolean(exchange.query, "withCount") ?? undefined;
  const expected = expectedCounts(rules, withCount);
  const counts = read.counts;
  const timeline = countTimeline(rules, contract.timeline);
  const schema = judgeSchema(contract.schemas, route, body, expected);
  for (const { rule, reason, diagnostics } of schema) {
    const onCounts = rule.startsWith("counts.");
    const evidence = evidenceOf(target, onCounts ? counts : undefined, diagnostics);
    judgement.fail(rule, reason, evidence, onCounts ? timeline : []);
  }
  const change =
    route.countDeprecation && !schema.some((b) => b.rule.startsWith("counts."))
      ? datedCountChange(rules, expected, countsOf(exchange.recorded.body), withCount, contract.timeline)
      : undefined;
  if (change) {
    judgement.dated.push(change);
    judgement.explained.push("pagination.totalCount", "pagination.totalPages");
  }
  const sizeAsked = Number(exchange.query.get("pageSize") ?? Number.NaN);
  const first = crawl.pages[0];
  const breaches = judgePage(read, {
    index: crawl.pages.length + 1,
    requestedSize: Number.isInteger(sizeAsked) ? sizeAsked : undefined,
    sentToken: undefined,
    seen: crawl.seen,
    firstIds: first?.ids,
  });
  for (const breach of breaches) {
    // A repeated token is judged by the crawl's end: following it past the recording (extend.ts) notices it.
    if (breach.kind === "token-repeated") continue;
    const [reason, facts] =
      breach.kind === "oversized"
        ? [
            `the page holds ${breach.entries} entries, more than its page size ${breach.limit}`,
            { entries: breach.entries, pagination: counts },
          ]
        : [
            breach.kind === "duplicate"
              ? `entry id ${breach.ids[0]} was already given earlier in this crawl${breach.ids.length > 1 ? ` (and ${breach.ids.length - 1} more)` : ""}`
              : "the first continuation token led back to the first page's entries, not to the next page",
            { ids: breach.ids.slice(0, 20) },
          ];
    judgement.fail(breach.rule, reason, evidenceOf(target, facts));
  }
  for (const id of read.ids) crawl.seen.add(id);
  if (crawl.targetLog.length === 0) crawl.startedAt = target.sentAt;
  crawl.endedAt = target.answeredAt;
  crawl.lastStep = step;
  const page: TargetPage = {
    index: crawl.targetLog.length + 1,
    url: target.request.url,
    sentToken: exchange.query.get("continuationToken") ?? undefined,
    status: target.status,
    ids: read.ids,
    dates: read.dates,
    token: read.token,
    step,
    size: read.entries.length,
    counts: counts ?? { totalCount: undefined, totalPages: undefined, pageSize: undefined },
    expected,
  };
  crawl.targetLog.push(page);
  crawl.pages.push(page);
  return page;
}

/**
 * A page of a listing (`judgeListingPage`); where the recording ended, the target's end too; then, at the
 * end of a crawl that began with its first page, real totals agree with what the crawl counted. Totals
 * are real where the timeline makes them so, and, on the listings the count deprecation leaves alone (an
 * organization's forms, the partner's organizations), wherever the first page gives both.
 */
export async function judgeListing(
  http: HttpClient,
  exchange: Exchange,
  request: HttpRequest,
  crawl: ListingCrawl,
  judgement: Judgement,
  contract: Contract,
): Promise<void> {
  const page = judgeListingPage(exchange, judgement, crawl, contract);
  if (!page || !exchange.rules) return;
  const recorded = exchange.route && readRoutePage(exchange.recorded.body, exchange.route);
  const recordedEnd = recorded?.ok === true && recorded.entries.length === 0;
  let ended = page.size === 0;
  if (recordedEnd && !ended) {
    ended = await followToEnd(http, exchange, request, page, crawl, judgement);
  }
  // A target that lost recorded entries is judged as a whole after the rerun (crawls.ts), not by totals.
  const first = crawl.pages[0];
  if (!ended || !keepsRecordedEntries(crawl) || !crawl.fromFirstPage || !first) return;
  if (first.expected !== "real" && !(first.expected === "not-applicable" && givesTotals(first.counts)))
    return;
  const problems = totalsDisagree(first.counts, crawl.seen.size);
  if (problems.length === 0) return;
  const { totalCount, totalPages } = first.counts;
  judgement.fail(
    "counts.real-with-withcount",
    `the first page (${first.step.id}) declared totalCount ${String(totalCount)} and totalPages ${String(totalPages)}; the crawl counted ${crawl.seen.size} entries`,
    evidenceOf(exchange.target, first.counts, problems),
    countTimeline(exchange.rules, contract.timeline),
  );
}
