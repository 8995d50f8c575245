import { paginationOf, readPage, readRoutePage } from "../../contracts/index.js";
import { evidenceOf } from "../runner/excerpt.js";
import {
  type HttpClient,
  type HttpExchange,
  type HttpRequest,
  isSuccess,
  parseJson,
} from "../runner/http.js";
import { encodeQuery } from "./derive.js";
import { type ListingCrawl, TOKEN_PARAM } from "./listings.js";
import type { Exchange, Judgement, TargetPage } from "./types.js";

/** Most pages followed past the recording's end when the target declares no total. */
export const EXTRA_PAGES = 100;

function withToken(request: HttpRequest, query: URLSearchParams, token: string): HttpRequest {
  const next = new URLSearchParams();
  for (const [name, value] of query) if (name.toLowerCase() !== TOKEN_PARAM) next.append(name, value);
  next.append("continuationToken", token);
  return { ...request, url: `${request.url.split("?")[0]}?${encodeQuery(next)}` };
}

/** Pages the target may still need: its declared total, when real, else a fixed bound. */
function bound(crawl: ListingCrawl): number {
  const first = crawl.pages[0]?.counts;
  if (
    first &&
    typeof first.totalCount === "number" &&
    first.totalCount >= 0 &&
    typeof first.pageSize === "number" &&
    first.pageSize > 0
  ) {
    return Math.max(1, Math.ceil(first.totalCount / first.pageSize) + 2 - crawl.pages.length);
  }
  return EXTRA_PAGES;
}

/**
 * Where the recorded crawl ended on an empty page and the target's page still holds entries, the
 * target's listing is longer (another data set) or never ends: its own tokens are followed, bounded, to
 * its empty page. Returns true when the crawl ended legally (empty page, or no token).
 */
export async function followToEnd(
  http: HttpClient,
  exchange: Exchange,
  request: HttpRequest,
  page: TargetPage,
  crawl: ListingCrawl,
  judgement: Judgement,
): Promise<boolean> {
  const route = exchange.route;
  let token = page.token;
  let last: HttpExchange = exchange.target;
  let extra = 0;
  let entries = 0;
  const limit = bound(crawl);
  const pagination = (e: HttpExchange) => {
    const parsed = parseJson(e);
    return parsed.ok ? paginationOf(parsed.value) : undefined;
  };
  while (token !== undefined) {
    if (extra >= limit) {
      judgement.breaches.push({
        rule: "pagination.end-is-empty-array",
        reason: `the recorded crawl ended here on an empty page; the target's went on for ${extra} more pages (${crawl.seen.size} entries) without an empty one: the crawl was cut`,
        evidence: evidenceOf(last, pagination(last)),
      });
      return false;
    }
    last = await http.send(withToken(request, exchange.query, token));
    extra++;
    if (!isSuccess(last.status)) {
      judgement.breaches.push({
        rule: "pagination.token-echoed",
        reason: `past the recording's end, the target refused its own continuation token with ${last.status}`,
        evidence: evidenceOf(last),
      });
      return false;
    }
    const parsed = parseJson(last);
    const read = !parsed.ok
      ? undefined
      : route
        ? readRoutePage(parsed.value, route)
        : readPage(parsed.value, "data");
    if (!read?.ok) return false;
    crawl.targetLog.push({
      index: crawl.targetLog.length + 1,
      url: last.request.url,
      sentToken: token,
      status: last.status,
      ids: read.ids,
      token: read.token,
    });
    crawl.endedAt = last.answeredAt;
    if (read.entries.length === 0) {
      judgement.notes.push(
        `the target's listing is longer than the recording's: it ended on an empty page ${extra} page(s) further, after ${entries} more entries`,
      );
      return true;
    }
    for (const id of read.ids) {
      if (!crawl.seen.has(id)) {
        crawl.seen.add(id);
        entries++;
      }
    }
    if (read.token !== undefined && read.token === token) {
      judgement.breaches.push({
        rule: "pagination.end-is-empty-array",
        reason: "past the recording's end, a non-empty page answered with the very token it was asked with",
        evidence: evidenceOf(last, read.pagination),
      });
      return false;
    }
    const next = read.token;
    token = next;
  }
  judgement.notes.push(
    "the target's listing is longer than the recording's and ends on a non-empty page without a token (allowed)",
  );
  return true;
}
