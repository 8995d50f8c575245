import type { IsoDay } from "../core/dates.js";
import type { Finding } from "../core/finding.js";
import type { LeftOutOperation } from "./left-out.js";

/** Which API a route belongs to: `/v5`, the switched-off `/v3`, or the domain root (token endpoint). */
export type ApiVersion = "v5" | "v3" | "root";

/** The right a route needs. `organization_admin` is the OpenAPI document's `OrganizationAdmin` role. */
export type AuthRequirement = "none" | "bearer" | "organization_admin";

export type QueryParamType = "string" | "integer" | "boolean" | "date-time" | "string[]";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** A query parameter. Names are matched case-insensitively, as the service (ASP.NET) does. */
export interface QueryParam {
  name: string;
  type: QueryParamType;
  required: boolean;
  /** Largest accepted value (integers), e.g. `pageSize` 100. */
  max?: number;
  default?: string | number | boolean;
}

/** How a listing route paginates. */
export interface PaginationSpec {
  /** Name of the result array: `data` on v5, `items` on routes that use that name. */
  resultArray: "data" | "items";
  /** Schema name of one element of the result array. */
  entrySchema: string;
  defaultPageSize: number;
  maxPageSize: number;
  /**
   * The fields that name an entry, joined by `/`, where its entries carry no integer `id` (an
   * organization's forms: `formType` and `formSlug`); a dotted path reaches into an object. Absent where
   * the `id` names it.
   * @example ["formType", "formSlug"] // an entry's id reads "Event/gala-annuel"
   */
  entryKey?: readonly string[];
  /**
   * The fields by which the listing may leave entries out when no filter is asked (the document's
   * `itemStates`, `tierTypes`, `states` have no published default): an entry another listing names
   * vouches for an entry of this one only when this one served an entry with the same values.
   * @example ["state", "type"] // the items listing: item states and tier types
   */
  filteredBy?: readonly string[];
  /**
   * Where an entry holds other entries of the same listing, named by their own `id` (the seed's entry of
   * the items listing is an order's line, holding the order's `items`): a listing that serves the entry
   * serves them too, so an item another listing names is held though no entry of its own names it.
   * @example "items"
   */
  holds?: string;
  /**
   * The listings whose entries this one's entries name (an item names its `order` and its `payments`):
   * what a crawl of this listing holds vouches for entries of theirs in the same scope (`NamedListing`).
   * @example [{ route: "v5.form-orders", at: "order" }]
   */
  names?: readonly NamedListing[];
}

/** A listing an entry names, and where in the entry: an object or a list of objects, each with its `id`. */
export interface NamedListing {
  /** The named listing's route id, at the same scope (a form's items name the form's orders). */
  readonly route: string;
  /** The dotted path to the named object, or list of objects (`order`, `payments`). */
  readonly at: string;
  /** The named listing's `filteredBy`, copied when the catalogue is built. */
  readonly filteredBy?: readonly string[];
}

export interface RouteResponse {
  status: number;
  contentType: string;
  /** Schema name; absent for binary bodies (attached files). */
  schema?: string;
}

/** One route of the catalogue (`contracts/routes.yaml`). */
export interface Route {
  id: string;
  method: HttpMethod;
  /** Path template, `{name}` for parameters, e.g. `/v5/organizations/{organizationSlug}/items`. */
  path: string;
  version: ApiVersion;
  auth: AuthRequirement;
  summary: string;
  /** The seed section or rule this route comes from. */
  seed: string;
  pathParams: readonly string[];
  query: readonly QueryParam[];
  pagination?: PaginationSpec;
  /** One of the six listing routes whose counts are deprecated (v3 and v5 forms). */
  countDeprecation: boolean;
  requestBody?: { contentType: string; schema: string };
  response: RouteResponse;
  /** Other statuses the route documents (401, 403, 400 …). */
  errors: readonly number[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export interface RouteCatalogue {
  readonly all: readonly Route[];
  /** Throws an `AssopayError` for an unknown id (a programming mistake). */
  byId(id: string): Route;
  /** The route whose template matches this method and path, with its parameters decoded. */
  match(method: string, pathname: string): RouteMatch | undefined;
  /** Every route that paginates. */
  listings(): readonly Route[];
  /**
   * A route's path with its parameters filled in and percent-encoded, from the template compiled once.
   *
   * @example
   * contract.routes.pathOf("v5.order-detail", { orderId: 12 }); // "/v5/orders/12"
   */
  pathOf(id: string, values: Readonly<Record<string, string | number>>): string;
}

/** What a dated change does. A closed union: every consumer switches on it exhaustively. */
export type TimelineEffect =
  | "withcount-introduced"
  | "withcount-default-false"
  | "count-fields-removed"
  | "withcount-left-document"
  | "new-association-verification"
  | "v3-switch-off";

export type TimelineStatus = "done" | "planned";

export interface TimelineEntry {
  id: string;
  date: IsoDay;
  effect: TimelineEffect;
  status: TimelineStatus;
  /** True when the provider gave no exact day and the date is our estimate. */
  approximate: boolean;
  summary: string;
  /** Which routes it affects: the count-deprecation routes, a version, or everything. */
  affects: "count-deprecation" | "v3" | "associations";
  source: string;
  /**
   * For a change that takes something away: the day it is deprecated (RFC 9745), announced with the
   * change's date as its sunset (RFC 8594) before that date.
   */
  deprecated?: IsoDay;
  /** The URI reference the announcement's `Link` names (with `deprecated`). */
  link?: string;
}

/**
 * The headers that announce the changes still ahead of a route (lower-case names): `deprecation` (an
 * RFC 9651 Date, `@<seconds>`), `sunset` (an IMF-fixdate) and `link`; none when nothing is ahead.
 */
export type DeprecationHeaders = Readonly<Partial<Record<"deprecation" | "sunset" | "link", string>>>;

/**
 * How counts behave on a count-deprecation route at a date:
 * - `always-real`: before `withCount` existed, real totals;
 * - `default-true`: `withCount` exists, real totals unless `withCount=false`;
 * - `default-false`: -1 unless `withCount=true`;
 * - `absent`: the two fields are gone from the response;
 * - `not-applicable`: the route has no count deprecation.
 */
export type CountMode = "always-real" | "default-true" | "default-false" | "absent" | "not-applicable";

/** What the counts of one response should be. */
export type ExpectedCounts = "real" | "minus-one" | "absent" | "not-applicable";

/**
 * The timeline's dated rules: what holds at date D for a route (served or switched off, the count mode,
 * verification of new associations). The one answer every part of the project uses. Not to be confused
 * with the provider rules of `rules.yaml` ({@link ProviderRule}), the consumer rules of
 * `consumer-rules.yaml` or replay's match rules (`MatchRule`).
 */
export interface DatedRules {
  date: IsoDay;
  route: Route;
  /** False once the route's version is switched off. */
  served: boolean;
  /** Whether the `withCount` query parameter exists at that date. */
  withCountParam: boolean;
  countMode: CountMode;
  newAssociationsNeedVerification: boolean;
  /** Entries in force at that date that affect this route. */
  inForce: readonly TimelineEntry[];
}

/** @deprecated Renamed {@link DatedRules} (the timeline's rules, not `rules.yaml`'s); kept for existing importers. */
export type RouteRules = DatedRules;

export interface Timeline {
  readonly entries: readonly TimelineEntry[];
  /** The file it was read from. */
  readonly source: string;
  /** The dated rules of a route at a date. */
  datedRulesAt(route: Route, date: IsoDay): DatedRules;
  /** @deprecated Renamed {@link Timeline.datedRulesAt}; the same function, kept for existing callers. */
  rulesAt(route: Route, date: IsoDay): DatedRules;
  /**
   * What the sandbox and replay announce on a route at a date: the changes that take something away
   * from it and have not yet taken effect ({@link DeprecationHeaders}).
   */
  deprecationHeadersAt(route: Route, date: IsoDay): DeprecationHeaders;
  /** The entry for an effect, if the timeline has one. */
  entry(effect: TimelineEffect): TimelineEntry | undefined;
  /** Whether an effect is in force at a date. */
  inForce(effect: TimelineEffect, date: IsoDay): boolean;
}

/** A notification type. `assumed` marks identifiers the seed does not publish. */
export interface NotificationType {
  id: string;
  eventType: string;
  meaning: string;
  assumed: boolean;
  /** Provider state that makes the service emit it. */
  trigger: string;
}

/** A provider state named in the contract (Pact convention: `{state, params, action}`). */
export interface ProviderState {
  name: string;
  description: string;
  params: Readonly<Record<string, string | number | boolean>>;
}

/** One validation finding, as a sentence: `response.data[3].amount.total must be integer, got string "1200"`. */
export interface Diagnostic {
  /** Where in the value, e.g. `response.data[3].amount.total`. */
  path: string;
  message: string;
  keyword: string;
}

/**
 * A rule an answer breaks, as a judge of the contract says it: the one result type's rule and reason
 * (`Finding`), and the sentences that show it, which the caller puts into its evidence.
 */
export type RuleBreach = Pick<Finding, "rule" | "reason"> & { readonly diagnostics: readonly string[] };

/** Whose shape wins where the seed and the provider's published document disagree. */
export type ContractShapes = "seed" | "document";

export interface SchemaRegistry {
  /** Names of the loaded schema files (`payer`, `list-entry` …). */
  names(): readonly string[];
  /** Validates a value against a named schema. Empty array means valid. */
  validate(schema: string, value: unknown, root?: string): Diagnostic[];
  /** Validates a whole listing page: envelope, result array, entries and the counts allowed at that date. */
  validatePage(route: Route, value: unknown, counts: ExpectedCounts, root?: string): Diagnostic[];
  /** The raw JSON Schema of a name (for Pact matchers). */
  schema(name: string): Readonly<Record<string, unknown>>;
}

/** A provider rule (`contracts/rules.yaml`): what verify enforces; checks and faults name it by id. */
export interface ProviderRule {
  id: string;
  seed: string;
  summary: string;
  /** The timeline effect a dated rule starts with (absent: in force at every date). */
  inForceFrom?: TimelineEffect;
}

/** @deprecated Renamed {@link ProviderRule} (the rules of `rules.yaml`); kept for existing importers. */
export type Rule = ProviderRule;

export interface Contract {
  routes: RouteCatalogue;
  /** The provider rules of `rules.yaml`. */
  rules: readonly ProviderRule[];
  timeline: Timeline;
  schemas: SchemaRegistry;
  /** Whose shape the schemas judge by where the seed and the document disagree. */
  shapes: ContractShapes;
  notificationTypes: readonly NotificationType[];
  providerStates: readonly ProviderState[];
  /** The document's operations the catalogue leaves out, each with why (`left-out.yaml`). */
  leftOut: readonly LeftOutOperation[];
}
