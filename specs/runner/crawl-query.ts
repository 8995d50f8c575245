import { queryValue } from "../../contracts/index.js";

/**
 * The query a crawl asks, read as the service reads it (names whatever their case, `contracts/query.ts`)
 * and written as the crawler sends it: each value encoded once, the token last.
 */

/** A crawl's query: name and value pairs, the continuation token aside. */
export type CrawlQuery = readonly (readonly [string, string])[];

const paramsOf = (query: CrawlQuery) =>
  new URLSearchParams(query.map(([name, value]): [string, string] => [name, value]));

/** The `pageSize` a query asks; undefined if none. */
export function askedPageSize(query: CrawlQuery): number | undefined {
  const asked = queryValue(paramsOf(query), "pageSize");
  return asked === undefined ? undefined : Number(asked);
}

/** Whether a query asks the listing oldest first (`sortOrder=Asc`, in any case). */
export function asksAscending(query: CrawlQuery): boolean {
  return queryValue(paramsOf(query), "sortOrder")?.toLowerCase() === "asc";
}

/** The query string of one page: the pairs, then the token under `tokenName` when there is one. */
export function queryString(query: CrawlQuery, token: string | undefined, tokenName: string): string {
  const all = token === undefined ? query : [...query, [tokenName, token] as const];
  return all.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
}
