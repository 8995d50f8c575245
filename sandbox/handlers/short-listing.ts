import type { RouteCall, SandboxCore } from "../core.js";
import { listSequence } from "../data/sequence.js";
import { type Exchange, sendJson, sendValidation } from "../http.js";
import { listPage } from "../listing.js";
import { checkQuery } from "../query-check.js";

/**
 * Answers one page of a short listing (an organization's forms, the partner's organizations) through the
 * same machinery as the order listings: the route's `pagination` spec (result array, page sizes), an
 * opaque continuation token tied to this listing and protected against tampering, an empty result array
 * at the end, and the counts the timeline gives the route at the sandbox's date. `scope` names what the
 * listing is of (the organization slug, the filters), so a token of one listing is refused by another.
 */
export function sendShortListing(
  core: SandboxCore,
  ex: Exchange,
  call: RouteCall,
  scope: readonly string[],
  values: readonly unknown[],
): void {
  const route = call.rules.route;
  const pagination = route.pagination;
  const resultArray = pagination?.resultArray ?? "data";
  const query = checkQuery(route, call.rules, ex.query, core.fault);
  if (Object.keys(query.errors).length > 0) {
    sendValidation(ex, query.errors);
    return;
  }
  const sequence = listSequence(values);
  const outcome = listPage(core, {
    rules: call.rules,
    scope: [route.id, ...scope].join("|").toLowerCase(),
    sequence,
    lookup: (id) => sequence.slice(id - 1, "asc", 1)[0],
    token: query.strings.get("continuationToken"),
    pageSize: query.integers.get("pageSize") ?? pagination?.defaultPageSize ?? 20,
    pageIndex: query.integers.get("pageIndex"),
    direction: "asc",
    withCount: query.booleans.get("withCount"),
  });
  if (!outcome.ok) {
    sendValidation(ex, { continuationToken: [outcome.message] });
    return;
  }
  sendJson(ex, 200, {
    [resultArray]: outcome.records.map((record) => record.value),
    pagination: outcome.pagination,
  });
}
