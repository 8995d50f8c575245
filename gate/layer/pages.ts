import { readPage } from "../../contracts/index.js";
import type { PageSeen } from "../exchange.js";
import { type FinalToken, type PageCut, pageLimit } from "../scenarios.js";
import type { Cursor } from "./cursors.js";

/** What one listing response becomes once the scenario has cut it. */
export interface CutPage {
  readonly body: Record<string, unknown>;
  readonly page: PageSeen;
}

export interface CutInput {
  /** The upstream's JSON answer. */
  readonly body: unknown;
  readonly resultArray: "data" | "items";
  /** The cursor of the request (the first page's, for a call without a token). */
  readonly cursor: Cursor;
  /** The token the client sent, decoded once; `undefined` on a first call. */
  readonly sentToken: string | undefined;
  readonly cut: PageCut;
  readonly finalToken: FinalToken;
  readonly issue: (cursor: Cursor) => string;
}

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

/**
 * Serves part of an upstream page: the entries from `cursor.skip`, at most as many as the scenario's cut
 * allows, with a token of the gate's own that leads to the rest (the same upstream page further on, or
 * the upstream's next page). An empty upstream page ends the crawl and gets the scenario's final token.
 * Returns `undefined` when the body is not a page (no result array): it is then passed on untouched.
 */
export function cutPage(input: CutInput): CutPage | undefined {
  const { body, cursor } = input;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const source = body as Record<string, unknown>;
  const read = readPage(body, input.resultArray);
  if (!read.ok) return undefined;
  const entries = read.entries;
  const upstreamPagination = read.pagination;
  const upstreamNext = read.token;

  const remaining = entries.slice(cursor.skip);
  const served = remaining.slice(0, pageLimit(input.cut, cursor.pageIndex) ?? remaining.length);
  let token: string | undefined;
  if (served.length > 0) {
    const next: Cursor | undefined =
      served.length < remaining.length
        ? { ...cursor, skip: cursor.skip + served.length, pageIndex: cursor.pageIndex + 1 }
        : upstreamNext !== undefined
          ? { ...cursor, upstreamToken: upstreamNext, skip: 0, pageIndex: cursor.pageIndex + 1 }
          : undefined;
    token = next ? input.issue(next) : undefined;
  } else {
    switch (input.finalToken) {
      case "fresh":
        token = input.issue(cursor);
        break;
      case "echo":
        token = input.sentToken ?? input.issue(cursor);
        break;
      case "absent":
        token = undefined;
        break;
    }
  }

  const pagination: Record<string, unknown> = { ...(upstreamPagination ?? {}), pageIndex: cursor.pageIndex };
  if (token === undefined) delete pagination.continuationToken;
  else pagination.continuationToken = token;
  return {
    body: { ...source, [input.resultArray]: served, pagination },
    page: {
      entries: served.length,
      token,
      pageSize: numberOrUndefined(pagination.pageSize),
      pageIndex: cursor.pageIndex,
      totalCount: numberOrUndefined(pagination.totalCount),
      totalPages: numberOrUndefined(pagination.totalPages),
    },
  };
}
