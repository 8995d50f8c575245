import type { Contract, RouteMatch } from "../../contracts/index.js";
import type { RouteRef, SentToken } from "../exchange.js";
import { findParam, type RawParam, rawPathOf, rawQueryOf, splitRawQuery } from "../raw-query.js";

/** What the layer and the judges read from a request line, without decoding anything but the token. */
export interface RequestFacts {
  readonly match: RouteMatch | undefined;
  readonly route: RouteRef | undefined;
  /** Set on listing routes: the route id and path parameters. */
  readonly listingKey: string | undefined;
  /** The raw path, still percent-encoded. */
  readonly path: string;
  /** The raw query, without `?`. */
  readonly query: string;
  /** The `continuationToken` pair (any case of the name), on listing routes only. */
  readonly tokenParam: RawParam | undefined;
  /** The token sent, raw and decoded once; `undefined` when absent or empty. */
  readonly token: SentToken | undefined;
}

/** The listing a request belongs to: route id and path parameters (slugs compared without case). */
export function listingKey(match: RouteMatch): string {
  const params = Object.entries(match.params).map(([k, v]) => `${k}=${v.toLowerCase()}`);
  return [match.route.id, ...params].join(" ");
}

/** Reads a request line against the contract's route catalogue. */
export function requestFacts(contract: Contract, method: string, rawUrl: string): RequestFacts {
  const path = rawPathOf(rawUrl);
  const query = rawQueryOf(rawUrl);
  const match = contract.routes.match(method, path);
  const listing = match?.route.pagination !== undefined;
  const tokenParam = match && listing ? findParam(splitRawQuery(query), "continuationToken") : undefined;
  return {
    match,
    route: match && {
      id: match.route.id,
      version: match.route.version,
      listing,
      countDeprecation: match.route.countDeprecation,
    },
    listingKey: match && listing ? listingKey(match) : undefined,
    path,
    query,
    tokenParam,
    token:
      tokenParam && tokenParam.value !== ""
        ? { rawName: tokenParam.rawName, raw: tokenParam.rawValue ?? "", decoded: tokenParam.value }
        : undefined,
  };
}
