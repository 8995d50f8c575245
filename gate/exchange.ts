import type { ApiVersion } from "../contracts/index.js";

/** The route a request matched, as the judges need it. */
export interface RouteRef {
  readonly id: string;
  readonly version: ApiVersion;
  /** Whether it paginates (the crawl rules apply). */
  readonly listing: boolean;
  readonly countDeprecation: boolean;
}

/** The continuation token a request carried: raw as written, and decoded once as the service reads it. */
export interface SentToken {
  readonly rawName: string;
  readonly raw: string;
  readonly decoded: string;
}

/** What a listing page handed out, as the client saw it. */
export interface PageSeen {
  readonly entries: number;
  /** The continuationToken of the page; `undefined` when absent or null. */
  readonly token: string | undefined;
  readonly pageSize: number | undefined;
  readonly pageIndex: number | undefined;
  readonly totalCount: number | undefined;
  readonly totalPages: number | undefined;
}

/** Why the gate itself answered instead of the upstream. */
export type GateAnswer =
  | "unknown-token"
  | "expired-access-token"
  | "request-budget"
  | "upstream-failed"
  | "malformed-request"
  | "body-too-large";

export interface ExchangeResponse {
  readonly status: number;
  readonly madeBy: "upstream" | "gate";
  readonly reason: GateAnswer | undefined;
  /** Present when the response was a listing page the gate could read. */
  readonly page: PageSeen | undefined;
}

/**
 * One request the command made, recorded as received: method, the request target byte for byte
 * (never decoded or re-encoded), headers, and the response it got.
 */
export interface RecordedExchange {
  /** 1-based arrival order. */
  readonly seq: number;
  readonly method: string;
  /** The request target exactly as received (`/v5/…?continuationToken=%2B…`). */
  readonly rawUrl: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly route: RouteRef | undefined;
  /** The listing a crawl request belongs to: route id and path parameters. */
  readonly listingKey: string | undefined;
  readonly token: SentToken | undefined;
  /** The whole `Authorization` header (`""` when absent): who the request claims to be. */
  readonly authorization: string;
  /** `undefined` when the request never completed (the command was stopped meanwhile). */
  readonly response: ExchangeResponse | undefined;
}

/** `Bearer abcd…wxyz`: enough to tell tokens apart in a report, never the whole secret. */
export function shortAuthorization(header: string): string {
  if (header === "") return "(none)";
  const space = header.indexOf(" ");
  const scheme = space === -1 ? "" : header.slice(0, space);
  const value = space === -1 ? header : header.slice(space + 1);
  const shown = value.length <= 12 ? value : `${value.slice(0, 6)}…${value.slice(-4)}`;
  return scheme ? `${scheme} ${shown}` : shown;
}
