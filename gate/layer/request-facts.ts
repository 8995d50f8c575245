import type { Contract, RouteMatch } from "../../contracts/index.js";
import { findParam, rawPathOf, rawQueryOf, splitRawQuery } from "../raw-query.js";

/** The listing a request belongs to: route id and path parameters (slugs compared without case). */
export function listingKey(match: RouteMatch): string {
  const params = Object.entries(match.params).map(([k, v]) => `${k}=${v.toLowerCase()}`);
  return [match.route.id, ...params].join(" ");
}

/**
 * What the layer and the judges read from a request line against the contract's route catalogue, without
 * decoding anything but the token: the route, the listing (on listing routes), the raw path and query
 * (still percent-encoded, the query without `?`), the `continuationToken` pair (any case of the name, on
 * listing routes only) and the token sent, raw and decoded once (`undefined` when absent or empty).
 */
export function requestFacts(contract: Contract, method: string, rawUrl: string) {
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
        ? {
            rawName: tokenParam.rawName,
            raw: tokenParam.rawValue ?? "",
            decoded: tokenParam.value,
          }
        : undefined,
  };
}
