import { expectedCounts, queryBoolean } from "../../contracts/index.js";
import type { DatedRules, DeprecationHeaders, RouteCatalogue, Timeline } from "../../contracts/types.js";
import type { IsoDay } from "../../core/dates.js";
import { isJsonType } from "../cassette/body.js";
import type { StoredRequest, StoredResponse } from "../cassette/format.js";
import { firstHeader, queryParams } from "../http/message.js";
import type { HeldResponse } from "./held.js";

/** The part of the contract replay needs for `--at`: route matching and the timeline. */
export interface TimelineView {
  routes: Pick<RouteCatalogue, "match">;
  timeline: Pick<Timeline, "datedRulesAt" | "deprecationHeadersAt">;
}

/** The dated rules for a request at the date, or undefined for a path the catalogue does not know. */
export function datedRulesFor(
  view: TimelineView,
  at: IsoDay,
  method: string,
  path: string,
): DatedRules | undefined {
  const match = view.routes.match(method, path);
  return match ? view.timeline.datedRulesAt(match.route, at) : undefined;
}

/** The headers announcing the changes ahead of a request's route at the date (none for an unknown path). */
export function deprecationHeadersFor(
  view: TimelineView,
  at: IsoDay,
  request: Pick<StoredRequest, "method" | "path">,
): DeprecationHeaders {
  const match = view.routes.match(request.method, request.path);
  return match ? view.timeline.deprecationHeadersAt(match.route, at) : {};
}

/** What the service answers on a route whose version is switched off at the date (as the sandbox does). */
export function goneResponse(rules: DatedRules): StoredResponse {
  const off = rules.inForce.find((entry) => entry.effect === "v3-switch-off");
  const detail = `The ${rules.route.version} API is switched off${off ? ` since ${off.date}` : ""}: ${rules.route.method} ${rules.route.path} no longer exists.`;
  return {
    status: 404,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-assopay-timeline": `${rules.date} ${off?.id ?? "switched-off"}`,
    },
    body: {
      json: {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.5",
        title: "Not Found",
        status: 404,
        detail,
        errors: [{ code: "NotFound", message: detail }],
      },
    },
  };
}

/** The body of a held JSON response as data (a JSON type's text too), or undefined. */
function jsonOf(held: HeldResponse): unknown {
  if (held.bytes.length === 0) return undefined;
  if (!held.json && !isJsonType(firstHeader(held.headers, "content-type"))) return undefined;
  try {
    return JSON.parse(held.bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * A recorded response as the service answers it at the date: on a count-deprecation route the
 * pagination counts are removed (`absent`) or set to -1 (`minus-one`, unless the request asked
 * `withCount=true`). Real counts cannot be invented: a response recorded with -1 stays so at an earlier
 * date. Responses that are not a JSON object with a `pagination` object are returned unchanged (the same
 * object, so what was prepared for it is used again).
 */
export function applyCounts(rules: DatedRules, request: StoredRequest, response: HeldResponse): HeldResponse {
  const withCount = queryBoolean(queryParams(request.query), "withCount");
  const expected = expectedCounts(rules, withCount ?? undefined);
  if (expected !== "absent" && expected !== "minus-one") return response;
  const value = jsonOf(response);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return response;
  const pagination = (value as Record<string, unknown>).pagination;
  if (pagination === null || typeof pagination !== "object" || Array.isArray(pagination)) return response;
  const counts = { ...(pagination as Record<string, unknown>) };
  if (expected === "absent") {
    delete counts.totalCount;
    delete counts.totalPages;
  } else {
    counts.totalCount = -1;
    counts.totalPages = -1;
  }
  const json = { ...(value as Record<string, unknown>), pagination: counts };
  return { ...response, bytes: Buffer.from(JSON.stringify(json), "utf8"), json: true };
}
