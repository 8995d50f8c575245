import {
  type DatedRules,
  type ExpectedCounts,
  expectedCounts,
  queryBoolean,
  queryValue,
  type Route,
} from "../contracts/index.js";
import type { Cursor } from "./continuation-token.js";
import type { RouteCall, SandboxCore } from "./core.js";
import { DYNAMIC_ID_BASE, generatedOrder } from "./data/generate.js";
import type { FormDef, OrderRecord } from "./data/model.js";
import { type Direction, listSequence, type Numbered, type Sequence, START } from "./data/sequence.js";
import { type Exchange, sendJson, sendValidation } from "./http.js";

/** Ids of the made-up entries the `never-ending` fault serves past the end. */
const PHANTOM_BASE = 1_600_000_000;
const isPhantom = (id: number) => id >= PHANTOM_BASE && id < DYNAMIC_ID_BASE;
/** A cursor past every id, in either direction. */
const END: Readonly<Record<Direction, number>> = { asc: 0xffffffff, desc: 0 };

/** What a page is served from (its query read apart). `T` is what the listing holds (orders by default). */
export interface PageRequest<T extends { id: number } = OrderRecord> {
  /** Ties tokens to one listing (route and path parameters). */
  scope: string;
  sequence: Sequence<T>;
  /** The record of an id (what the `duplicate-entries` fault repeats). */
  lookup: (id: number) => T | undefined;
  /** Made-up records past the end, for the `never-ending` fault; a listing without them just ends. */
  phantoms?: (afterId: number, size: number) => T[];
  direction: Direction;
}

/** The counts a response carries: the contract's rule for the date, bent by a counts fault. */
export function countsFor(
  core: SandboxCore,
  rules: DatedRules,
  withCount: boolean | undefined,
): ExpectedCounts {
  // `withCount` counts only while the parameter exists: expectedCounts reads it in those modes alone.
  const expected = expectedCounts(rules, withCount);
  switch (core.fault) {
    case "leak-counts":
      return rules.countMode === "default-false" && expected === "minus-one" ? "real" : expected;
    case "counts-after-removal":
      return expected === "absent" ? (withCount === true ? "real" : "minus-one") : expected;
    default:
      return expected;
  }
}

/** Made-up orders of `form` past the end of its listing (the `never-ending` fault). */
export function phantomOrders(
  core: SandboxCore,
  form: FormDef,
  afterId: number,
  size: number,
): OrderRecord[] {
  const organization = core.store.organization(form.organizationSlug) ?? core.store.mainOrganization;
  const phantom: FormDef = { ...form, key: 997, firstId: PHANTOM_BASE, count: 100_000_000 };
  const first = isPhantom(afterId) ? afterId - PHANTOM_BASE + 1 : 0;
  return Array.from({ length: size }, (_, i) =>
    generatedOrder(core.store.seed, organization, phantom, first + i),
  );
}

/**
 * How the `early-empty-page` and `early-no-token` faults end a crawl before the end of the data: an
 * empty third page (with a token), or a second page without a token, while entries remain after it.
 */
function earlyEnd<T extends { id: number }>(
  core: SandboxCore,
  token: string | undefined,
  cursor: Cursor,
  records: readonly T[],
  sequence: Sequence<T>,
): "empty" | "no-token" | undefined {
  if (core.fault !== "early-empty-page" && core.fault !== "early-no-token") return undefined;
  const last = records.at(-1);
  if (token === undefined || last === undefined) return undefined;
  if (sequence.page(last.id, cursor.direction, 1).length === 0) return undefined;
  if (core.fault === "early-empty-page" && cursor.pageIndex === 3) return "empty";
  if (core.fault === "early-no-token" && cursor.pageIndex === 2) return "no-token";
  return undefined;
}

/**
 * Answers a page of a listing: its entries (`view`) in the route's result array and the pagination
 * exactly as the seed describes it, and as the fault (if any) bends it; 400 for a token that is not valid.
 */
export function sendPage<T extends { id: number }>(
  core: SandboxCore,
  ex: Exchange,
  rules: DatedRules,
  query: CheckedQuery,
  request: PageRequest<T>,
  view: (records: T[], pageIndex: number) => unknown[],
): void {
  const { sequence, scope } = request;
  const pagination = rules.route.pagination;
  const token = query.strings.get("continuationToken");
  const pageSize = query.integers.get("pageSize") ?? pagination?.defaultPageSize ?? 20;
  const withCount = query.booleans.get("withCount");
  const size = core.fault === "oversized-pages" ? pageSize + 1 : pageSize;
  const phantoms = (afterId: number): T[] =>
    core.fault === "never-ending" && request.phantoms ? request.phantoms(afterId, size) : [];
  let cursor: Cursor;
  let records: T[];
  if (token !== undefined) {
    const received = core.fault === "token-mangled" ? token.replaceAll("+", " ") : token;
    const bound = core.fault === "foreign-token-accepted" ? undefined : scope;
    const decoded = core.tokens.decode(bound, received);
    if (!decoded.ok) {
      sendValidation(ex, { continuationToken: [`The continuationToken is not valid: ${decoded.reason}.`] });
      return;
    }
    cursor = decoded.cursor;
    const asked = query.integers.get("pageIndex");
    if (asked !== undefined && asked > 1) {
      records = [];
    } else if (isPhantom(cursor.afterId)) {
      records = phantoms(cursor.afterId);
    } else {
      records = sequence.page(cursor.afterId, cursor.direction, size);
      const previous = request.lookup(cursor.afterId);
      if (core.fault === "duplicate-entries" && cursor.pageIndex === 2 && previous && records.length > 0) {
        records = [previous, ...records.slice(0, size - 1)];
      }
      // The one entry past a full first page, lost where the listing is one entry more than a page.
      if (
        core.fault === "limit-plus-one-drops-last" &&
        cursor.pageIndex === 2 &&
        sequence.total === size + 1
      ) {
        records = [];
      }
    }
  } else {
    const pageIndex = query.integers.get("pageIndex") ?? 1;
    records =
      pageIndex > 1
        ? sequence.slice((pageIndex - 1) * pageSize, request.direction, size)
        : sequence.page(START[request.direction], request.direction, size);
    cursor = { direction: request.direction, afterId: START[request.direction], pageIndex };
    if (records.length === 0 && pageIndex > 1) cursor = { ...cursor, afterId: END[request.direction] };
  }
  if (records.length === 0) records = phantoms(cursor.afterId);

  const early = earlyEnd(core, token, cursor, records, sequence);
  if (early === "empty") records = [];
  const last = records.at(-1);
  // The `drop-at-boundary` fault's token skips the entry after the page's last: it is never served.
  const after =
    last && core.fault === "drop-at-boundary" ? sequence.page(last.id, cursor.direction, 1)[0] : last;
  const continuationToken =
    early === "no-token"
      ? undefined
      : last !== undefined
        ? core.tokens.encode(scope, {
            direction: cursor.direction,
            afterId: (after ?? last).id,
            pageIndex: cursor.pageIndex + 1,
          })
        : (token ?? core.tokens.encode(scope, cursor));

  const counts = countsFor(core, rules, withCount);
  const real = counts === "real" || counts === "not-applicable";
  const total = sequence.total + (core.fault === "wrong-counts" ? 1 : 0);
  const pages = core.fault === "totals-floor" ? Math.floor(total / size) : Math.ceil(total / size);
  sendJson(ex, 200, {
    [pagination?.resultArray ?? "data"]: view(records, cursor.pageIndex),
    pagination: {
      pageSize,
      ...(counts === "absent" ? {} : { totalCount: real ? total : -1 }),
      pageIndex: cursor.pageIndex,
      ...(counts === "absent" ? {} : { totalPages: real ? pages : -1 }),
      // Absent only under the `early-no-token` fault.
      ...(continuationToken === undefined ? {} : { continuationToken }),
    },
  });
}

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
  const query = readQuery(core, ex, call.rules);
  if (!query) return;
  const sequence = listSequence(values);
  const request: PageRequest<Numbered<unknown>> = {
    scope: [call.rules.route.id, ...scope].join("|").toLowerCase(),
    sequence,
    lookup: (id) => sequence.slice(id - 1, "asc", 1)[0],
    direction: "asc",
  };
  sendPage(core, ex, call.rules, query, request, (records) => records.map((record) => record.value));
}

/**
 * Ties continuation tokens to one listing: the route, its organization and form, and the date window
 * asked (`from`, `to` in milliseconds), so that two windows' crawls never share a token.
 */
export function listingScope(
  route: Route,
  organizationSlug: string,
  form: FormDef | undefined,
  window: { from?: number; to?: number } = {},
): string {
  return [
    route.id,
    organizationSlug,
    form?.formType ?? "",
    form?.formSlug ?? "",
    window.from ?? "",
    window.to ?? "",
  ]
    .join("|")
    .toLowerCase();
}

/** Query values read and checked against the route's declared parameters. */
export interface CheckedQuery {
  integers: Map<string, number>;
  booleans: Map<string, boolean>;
  dates: Map<string, number>;
  strings: Map<string, string>;
}

const SORT_ORDERS = ["asc", "desc"];

/**
 * Reads every query parameter the route declares (names case-insensitive, booleans `true`/`True`),
 * checking types, `max` (pageSize ≤ 100) and the few values the service constrains. Parameters the
 * route does not declare are ignored, as the service does. Bad values are answered 400 (`undefined`).
 */
export function readQuery(core: SandboxCore, ex: Exchange, rules: DatedRules): CheckedQuery | undefined {
  const checked: CheckedQuery = {
    integers: new Map(),
    booleans: new Map(),
    dates: new Map(),
    strings: new Map(),
  };
  const errors: Record<string, string[]> = {};
  const fail = (name: string, message: string) => {
    errors[name] = [...(errors[name] ?? []), message];
  };
  for (const param of rules.route.query) {
    const raw = queryValue(ex.query, param.name);
    if (raw === undefined) continue;
    const invalid = `The value '${raw}' is not valid for ${param.name}.`;
    switch (param.type) {
      case "integer": {
        const value = Number(raw);
        if (!/^\s*[+-]?\d+\s*$/.test(raw) || !Number.isSafeInteger(value)) {
          fail(param.name, invalid);
        } else if (
          value < 1 ||
          (param.max !== undefined && value > param.max && core.fault !== "oversized-pages")
        ) {
          fail(param.name, `The field ${param.name} must be between 1 and ${param.max ?? 2147483647}.`);
        } else {
          checked.integers.set(param.name, value);
        }
        break;
      }
      case "boolean": {
        const value = queryBoolean(ex.query, param.name);
        if (typeof value === "boolean") checked.booleans.set(param.name, value);
        // withCount exists only between its introduction and removal: a bad value is ignored outside.
        else if (param.name.toLowerCase() !== "withcount" || rules.withCountParam) fail(param.name, invalid);
        break;
      }
      case "date-time": {
        const value = Date.parse(raw);
        if (Number.isNaN(value)) fail(param.name, invalid);
        else checked.dates.set(param.name, value);
        break;
      }
      case "string":
      case "string[]":
        if (param.name === "sortOrder" && !SORT_ORDERS.includes(raw.toLowerCase())) {
          fail(param.name, `The value '${raw}' is not valid for ${param.name}: use Asc or Desc.`);
        } else {
          checked.strings.set(param.name, raw);
        }
        break;
    }
  }
  if (Object.keys(errors).length === 0) return checked;
  sendValidation(ex, errors);
  return undefined;
}
