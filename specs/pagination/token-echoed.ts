import type { Route } from "../../contracts/index.js";
import { type CheckContext, readerGet } from "../runner/context.js";
import { queryString } from "../runner/crawl-query.js";
import { type CrawlResult, describeStop, pageOf } from "../runner/crawler.js";
import { evidenceOf, type HttpExchange, isSuccess } from "../runner/http.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { crawlNote, idList, judgeEveryCrawl } from "./listing-findings.js";

const RULE = "pagination.token-echoed";

/** A crawl's stop, judged for this rule. */
function judgeStop(result: CrawlResult, route: Route): SubjectFinding {
  const stop = result.stop;
  switch (stop.kind) {
    case "token-refused":
      return failOn(
        route.id,
        `the token sent back exactly as received was refused with ${stop.evidence.response?.status ?? "?"} (page ${result.pages})`,
        stop.evidence,
      );
    case "token-ignored":
      return failOn(
        route.id,
        "the token did not lead to the next page: the first page came back",
        stop.evidence,
      );
    case "not-a-list":
    case "first-page-refused":
    case "aborted":
      return skipOn(route.id, describeStop(result));
    case "empty-page":
    case "no-token":
    case "never-ends":
      return result.tokens.sent > 0
        ? passOn(route.id, crawlNote(result))
        : skipOn(route.id, "one page only: no token to send back");
  }
}

/** A token's page asked once more, as the reader: the answer, and the page it holds when it is a success. */
async function askAgain(ctx: CheckContext, route: Route, url: string) {
  const exchange = await readerGet(ctx, url);
  return { exchange, page: isSuccess(exchange.status) ? pageOf(exchange, route) : undefined };
}

/** What an answer that held no page did. */
const noPage = (exchange: HttpExchange) =>
  isSuccess(exchange.status) ? "got no page" : `was refused with ${exchange.status}`;

/**
 * A token of the default crawl sent once more: a client that retries a page (a timeout, a dropped
 * connection) sends its token twice. The first token that led to entries is sent (else the last): it must
 * be answered with a page again, not refused, and with that page, not the one after it, as a provider
 * whose tokens are cursors it moves on each use answers; a client retrying there skips a page. The page
 * must share an entry with what it first held (entries added meanwhile may shift it, not replace it).
 */
async function sentAgain(ctx: CheckContext, route: Route, passed: SubjectFinding): Promise<SubjectFinding> {
  const crawl = await ctx.crawl(route, "default");
  const pages = crawl.log.pages;
  const retried = pages.find((p) => p.sentToken !== undefined && p.ids.length > 0) ?? pages.at(-1);
  if (retried?.sentToken === undefined) return resumed(ctx, route, crawl, passed);
  const { exchange, page } = await askAgain(ctx, route, retried.url);
  const first = new Set(retried.ids);
  if (page && (first.size === 0 || page.ids.some((id) => first.has(id)))) {
    return resumed(ctx, route, crawl, passed);
  }
  return failOn(
    route.id,
    page
      ? `the token of page ${retried.index}, sent a second time, led to another page (${page.ids.length === 0 ? "an empty one" : idList(page.ids)}) instead of page ${retried.index} again (${idList(retried.ids)}): a client that retries a page skips one`
      : `the token of page ${retried.index}, sent a second time, ${noPage(exchange)}: a client that retries a page cannot go on`,
    evidenceOf(exchange),
  );
}

/**
 * The token the final empty page gave, where it is not the one sent for it, sent back at once: the
 * provider's own widget keeps it to resume from when new entries arrive (SERVICE-FACTS). It must be
 * answered with a page that holds no entry the crawl already collected; a provider whose final token
 * starts the listing again makes every resuming client import it twice.
 */
async function resumed(
  ctx: CheckContext,
  route: Route,
  crawl: CrawlResult,
  passed: SubjectFinding,
): Promise<SubjectFinding> {
  const last = crawl.log.pages.at(-1);
  const final = last?.token;
  if (!last || final === undefined || final === last.sentToken || crawl.log.unlogged) return passed;
  const query = queryString(crawl.log.query ?? [], final, crawl.log.tokenName ?? "continuationToken");
  const { exchange, page } = await askAgain(ctx, route, `${await ctx.urlOf(route)}?${query}`);
  const collected = new Set(crawl.log.pages.flatMap((p) => p.ids));
  const again = page?.ids.filter((id) => collected.has(id)) ?? [];
  if (page && again.length === 0) return passed;
  return failOn(
    route.id,
    page
      ? `the token the final empty page gave (page ${last.index}), sent back to resume, served ${again.length} entries the crawl already collected (${idList(again)}): a client that resumes from it imports them twice`
      : `the token the final empty page gave (page ${last.index}), sent back to resume, ${noPage(exchange)}: a client that keeps it to resume later cannot`,
    evidenceOf(exchange),
  );
}

/**
 * Pagination rules 4 and 5: the continuation token, sent back byte for byte (encoded once, whatever it
 * holds), is accepted and leads to the next page, in every crawl made of the listing; and the last one,
 * sent again, is answered again, as is the token the final empty page gave, with nothing already
 * collected. A crawl that ends before the end of the data is the completeness checks'
 * (pagination.complete and the two rules of an early end).
 */
export const tokenEchoedCheck = specCheck({
  id: "pagination/token-echoed",
  rule: RULE,
  title: "Tokens sent back byte for byte lead to the next page, and can be sent again",
  async run(ctx) {
    const findings: SubjectFinding[] = [];
    const routes = ctx.servedListings();
    for (const finding of await judgeEveryCrawl(ctx, RULE, judgeStop)) {
      const route = routes.find((r) => r.id === finding.subject);
      findings.push(finding.verdict === "pass" && route ? await sentAgain(ctx, route, finding) : finding);
    }
    return combine(findings, "listings crawled with their tokens sent back as received");
  },
});
