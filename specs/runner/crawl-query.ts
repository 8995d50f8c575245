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

/**
 * A page size at which a listing of `entries` ends on a partial page, so that totals computed with the
 * wrong rounding (`totalPages` as `floor(totalCount / pageSize)`) show: `undefined` (the listing's
 * default, sent as no `pageSize`) when the default does, else the largest size below it that does;
 * `undefined` too where none can (no entries).
 *
 * @example partialLastPageSize(300, 20) // 19: 15 full pages, then 15 entries
 * @example partialLastPageSize(50, 20) // undefined: the default ends on 10 entries
 */
export function partialLastPageSize(entries: number, byDefault: number): number | undefined {
  if (entries % byDefault !== 0) return undefined;
  for (let size = byDefault - 1; size >= 2; size--) if (entries % size !== 0) return size;
  return undefined;
}
