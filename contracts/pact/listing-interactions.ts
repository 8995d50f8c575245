import type { IsoDay } from "../../core/dates.js";
import { expectedCounts } from "../timeline.js";
import type { Contract, ExpectedCounts, Route } from "../types.js";
import { exampleOf, type Matcher } from "./examples.js";
import { httpInteraction, reroot } from "./interaction.js";

const ENTRIES = 45;
const PAGE_SIZE = 20;
const STATE = { name: "a form with entries", params: { count: ENTRIES, pageSize: PAGE_SIZE } };

function pageBody(
  contract: Contract,
  route: Route,
  counts: ExpectedCounts,
  empty: boolean,
): { content: unknown; rules: Record<string, Matcher[]> } {
  const pagination = route.pagination;
  if (!pagination) throw new Error(`route ${route.id} does not paginate`);
  const array = pagination.resultArray;
  const rules: Record<string, Matcher[]> = {
    "$.pagination.pageSize": [{ match: "integer" }],
    "$.pagination.pageIndex": [{ match: "integer" }],
  };
  const page: Record<string, unknown> = { pageSize: PAGE_SIZE, pageIndex: 1 };
  if (!empty) {
    page.continuationToken = "example-token";
    rules["$.pagination.continuationToken"] = [{ match: "type" }];
  }
  switch (counts) {
    case "real":
      page.totalCount = ENTRIES;
      page.totalPages = Math.ceil(ENTRIES / PAGE_SIZE);
      rules["$.pagination.totalCount"] = [{ match: "integer" }];
      rules["$.pagination.totalPages"] = [{ match: "integer" }];
      break;
    case "minus-one":
      page.totalCount = -1;
      page.totalPages = -1;
      break;
    case "absent":
    case "not-applicable":
      break;
  }
  if (empty) return { content: { [array]: [], pagination: page }, rules };
  const entry = exampleOf(contract.schemas, pagination.entrySchema);
  return {
    content: { [array]: [entry.value], pagination: page },
    rules: { ...rules, [`$.${array}`]: [{ match: "type", min: 1 }], ...reroot(entry.rules, `$.${array}[*]`) },
  };
}

/**
 * The interactions of one listing route at a date: gone after its version's switch-off; otherwise the
 * first page without a token, with and without `withCount=true` where the parameter exists, and for the
 * seed's own listing (`v5.form-items`) the whole sequence: next page with the echoed token, final empty page.
 */
export function listingInteractions(
  contract: Contract,
  route: Route,
  date: IsoDay,
): Record<string, unknown>[] {
  const rules = contract.timeline.rulesAt(route, date);
  const base = { states: [STATE], method: "GET", path: route.path, role: "reader" as const };
  if (!rules.served) {
    return [
      httpInteraction({
        ...base,
        description: `${route.id}: switched off, the route no longer answers`,
        status: 404,
        statusClass: "clientError",
      }),
    ];
  }
  const out = [
    httpInteraction({
      ...base,
      description: `${route.id}: first page, no continuation token, withCount not sent`,
      query: { pageSize: String(PAGE_SIZE) },
      status: 200,
      responseBody: pageBody(contract, route, expectedCounts(rules, undefined), false),
    }),
  ];
  if (rules.withCountParam || rules.countMode === "absent") {
    out.push(
      httpInteraction({
        ...base,
        description: `${route.id}: first page with withCount=true`,
        query: { pageSize: String(PAGE_SIZE), withCount: "true" },
        status: 200,
        responseBody: pageBody(contract, route, expectedCounts(rules, true), false),
      }),
    );
  }
  if (route.id === "v5.form-items") {
    out.push(
      httpInteraction({
        ...base,
        description: `${route.id}: next page, the continuation token sent back as received`,
        query: { pageSize: String(PAGE_SIZE) },
        queryFromState: { continuationToken: "secondPageToken" },
        status: 200,
        responseBody: pageBody(contract, route, expectedCounts(rules, undefined), false),
      }),
      httpInteraction({
        ...base,
        description: `${route.id}: the end is an empty result array`,
        query: { pageSize: String(PAGE_SIZE) },
        queryFromState: { continuationToken: "finalPageToken" },
        status: 200,
        responseBody: pageBody(contract, route, expectedCounts(rules, undefined), true),
      }),
    );
  }
  return out;
}
