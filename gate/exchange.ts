import type { requestFacts } from "./layer/request-facts.js";

/** The continuation token a request carried: raw as written, and decoded once as the service reads it. */
export type SentToken = NonNullable<ReturnType<typeof requestFacts>["token"]>;

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
  | "body-too-large"
  | "rate-limited"
  | "unavailable"
  | "connection-reset";

export interface ExchangeResponse {
  /** `undefined` when the connection was closed without an answer (`connection-reset`). */
  readonly status: number | undefined;
  readonly madeBy: "upstream" | "gate";
  readonly reason?: GateAnswer | undefined;
  /** Present when the response was a listing page the gate could read. */
  readonly page?: PageSeen | undefined;
  /** When the answer was sent (ms since the epoch, the gate's clock). */
  readonly at: number;
  /** The answer's `Retry-After` header, as sent. */
  readonly retryAfter?: string | undefined;
}

/**
 * How much earlier than its `Retry-After` asked a retry may come and still count as waiting: timers and
 * the whole seconds of an HTTP-date are that coarse.
 */
export const RETRY_SLACK_MS = 20;

/**
 * A refusal a client is expected to survive by retrying the same call (SERVICE-FACTS: real clients retry
 * 429 and 5xx honouring `Retry-After`): 429, 502, 503, 504 or a connection closed unanswered; never the
 * gate's own 503 once the request budget is spent.
 */
export function isTransientRefusal(response: ExchangeResponse | undefined): boolean {
  if (response === undefined || response.reason === "request-budget") return false;
  if (response.reason === "connection-reset") return true;
  return [429, 502, 503, 504].includes(response.status ?? 0);
}

/**
 * One request the command made, recorded as received: method, the request target byte for byte
 * (never decoded or re-encoded), headers, and the response it got.
 */
export interface RecordedExchange {
  /** 1-based arrival order. */
  readonly seq: number;
  /** When the request arrived (ms since the epoch, the gate's clock). */
  readonly at: number;
  readonly method: string;
  /** The request target exactly as received (`/v5/…?continuationToken=%2B…`). */
  readonly rawUrl: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The route it matched, as the judges need it (`listing`: it paginates, the crawl rules apply). */
  readonly route: ReturnType<typeof requestFacts>["route"];
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
