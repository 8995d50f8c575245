import type { IsoDay } from "../../core/dates.js";
import { expectedCounts } from "../timeline.js";
import type { Contract, ExpectedCounts, Route } from "../types.js";
import { type Example, exampleOf, type Matcher } from "./examples.js";
import { httpInteraction, reroot } from "./interaction.js";

const ENTRIES = 45;
/** The example token of each step: page 1 gives A, the page asked with A gives B, B asks the empty page. */
const TOKEN_A = "example-token-a";
const TOKEN_B = "example-token-b";

/** The listing's state: the form with its entries, the tokens of this route's crawl at its default page size. */
const stateFor = (route: Route) => ({
  name: "a form with entries",
  params: { count: ENTRIES, listing: route.id },
});

function pageBody(
  contract: Contract,
  route: Route,
  counts: ExpectedCounts,
  nextToken: string | undefined,
  /** Whether the page holds entries; by default a page without a next token is the empty end. */
  withEntries: boolean = nextToken !== undefined,
): Example {
  const pagination = route.pagination;
  if (!pagination) throw new Error(`route ${route.id} does not paginate`);
  const pageSize = pagination.defaultPageSize;
  const array = pagination.resultArray;
  const rules: Record<string, Matcher[]> = {
    "$.pagination.pageSize": [{ match: "integer" }],
    "$.pagination.pageIndex": [{ match: "integer" }],
  };
  const page: Record<string, unknown> = { pageSize, pageIndex: 1 };
  if (nextToken !== undefined) {
    page.continuationToken = nextToken;
    rules["$.pagination.continuationToken"] = [{ match: "type" }];
  }
  switch (counts) {
    case "real":
      page.totalCount = ENTRIES;
      page.totalPages = Math.ceil(ENTRIES / pageSize);
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
  if (!withEntries) return { value: { [array]: [], pagination: page }, rules };
  const entry = exampleOf(contract.schemas, pagination.entrySchema);
  return {
    value: { [array]: [entry.value], pagination: page },
    rules: { ...rules, [`$.${array}`]: [{ match: "type", min: 1 }], ...reroot(entry.rules, `$.${array}[*]`) },
  };
}

/**
 * The interactions of one listing route at a date: gone after its version's switch-off; otherwise the
 * whole walk: the first page without a token (with and without `withCount=true` where the parameter
 * exists), the next page asked with the echoed token, the final empty page. Each step has its own example
 * token, so a stub server walks the listing to its end; optional parameters (pageSize) are left out. The
 * short listings, which no provider state fills past one page, have their first page only.
 */
export function listingInteractions(
  contract: Contract,
  route: Route,
  date: IsoDay,
): Record<string, unknown>[] {
  const rules = contract.timeline.datedRulesAt(route, date);
  const base = { states: [stateFor(route)], method: "GET", path: route.path, role: "reader" as const };
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
  // The walk needs a listing the provider state fills past one page: the orders, items and payments
  // of a form or an organization (the count-deprecation listings). A short listing (an organization's
  // forms, the partner's organizations) is one page whose example carries no token: a stub then ends
  // the walk there, as seed rule 7 lets a client stop on a non-empty page without a token.
  const walked = route.countDeprecation;
  const out = [
    httpInteraction({
      ...base,
      description: `${route.id}: first page, no continuation token, withCount not sent`,
      status: 200,
      responseBody: walked
        ? pageBody(contract, route, expectedCounts(rules, undefined), TOKEN_A)
        : pageBody(contract, route, expectedCounts(rules, undefined), undefined, true),
    }),
  ];
  if (rules.withCountParam || rules.countMode === "absent") {
    out.push(
      httpInteraction({
        ...base,
        description: `${route.id}: first page with withCount=true`,
        query: { withCount: "true" },
        status: 200,
        responseBody: pageBody(contract, route, expectedCounts(rules, true), TOKEN_A),
      }),
    );
  }
  if (!walked) return out;
  out.push(
    httpInteraction({
      ...base,
      description: `${route.id}: next page, the continuation token sent back as received`,
      queryFromState: { continuationToken: { from: "secondPageToken", example: TOKEN_A } },
      status: 200,
      responseBody: pageBody(contract, route, expectedCounts(rules, undefined), TOKEN_B),
    }),
    httpInteraction({
      ...base,
      description: `${route.id}: the end is an empty result array`,
      queryFromState: { continuationToken: { from: "finalPageToken", example: TOKEN_B } },
      status: 200,
      responseBody: pageBody(contract, route, expectedCounts(rules, undefined), undefined),
    }),
  );
  return out;
}
