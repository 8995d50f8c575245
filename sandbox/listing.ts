import { type DatedRules, type ExpectedCounts, expectedCounts, type Route } from "../contracts/index.js";
import type { Cursor } from "./continuation-token.js";
import type { SandboxCore } from "./core.js";
import { DYNAMIC_ID_BASE, generatedOrder } from "./data/generate.js";
import type { FormDef, OrderRecord } from "./data/model.js";
import { type Direction, type Sequence, START } from "./data/sequence.js";

/** Ids of the made-up entries the `never-ending` fault serves past the end. */
const PHANTOM_BASE = 1_600_000_000;
const isPhantom = (id: number) => id >= PHANTOM_BASE && id < DYNAMIC_ID_BASE;
/** A cursor past every id, in either direction. */
const END: Readonly<Record<Direction, number>> = { asc: 0xffffffff, desc: 0 };

/** One page request, its query already validated. `T` is what the listing holds (orders by default). */
export interface PageRequest<T extends { id: number } = OrderRecord> {
  rules: DatedRules;
  /** Ties tokens to one listing (route and path parameters). */
  scope: string;
  sequence: Sequence<T>;
  /** The record of an id (what the `duplicate-entries` fault repeats). */
  lookup: (id: number) => T | undefined;
  /** Made-up records past the end, for the `never-ending` fault; a listing without them just ends. */
  phantoms?: (afterId: number, size: number) => T[];
  token: string | undefined;
  pageSize: number;
  pageIndex: number | undefined;
  direction: Direction;
  withCount: boolean | undefined;
}

export interface PaginationObject {
  pageSize: number;
  totalCount?: number;
  pageIndex: number;
  totalPages?: number;
  /** Absent only under the `early-no-token` fault. */
  continuationToken?: string;
}

export type PageOutcome<T = OrderRecord> =
  | { ok: true; records: T[]; pagination: PaginationObject }
  | { ok: false; message: string };

/** The counts a response carries: the contract's rule for the date, bent by a counts fault. */
export function countsFor(
  core: SandboxCore,
  rules: DatedRules,
  withCount: boolean | undefined,
): ExpectedCounts {
  const expected = expectedCounts(rules, rules.withCountParam ? withCount : undefined);
  switch (core.fault) {
    case "leak-counts":
      return rules.countMode === "default-false" && expected === "minus-one" ? "real" : expected;
    case "counts-after-removal":
      return expected === "absent" ? (withCount === true ? "real" : "minus-one") : expected;
    default:
      return expected;
  }
}

/** The order a listing is asked for: `sortOrder=Asc`, else newest first (always, under `sort-order-ignored`). */
export function askedDirection(core: SandboxCore, sortOrder: string | undefined): Direction {
  return sortOrder?.toLowerCase() === "asc" && core.fault !== "sort-order-ignored" ? "asc" : "desc";
}

/** Where a date window starts: `from` itself, or just after it under the `window-from-exclusive` fault. */
export function windowStart(core: SandboxCore, from: number | undefined): number | undefined {
  return from !== undefined && core.fault === "window-from-exclusive" ? from + 1 : from;
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

/** The id after `id` in the listing's order (the entry the `drop-at-boundary` fault never serves). */
function skipOne<T extends { id: number }>(sequence: Sequence<T>, direction: Direction, id: number): number {
  return sequence.page(id, direction, 1)[0]?.id ?? id;
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
  after: (id: number) => readonly T[],
): "empty" | "no-token" | undefined {
  if (core.fault !== "early-empty-page" && core.fault !== "early-no-token") return undefined;
  const last = records.at(-1);
  if (token === undefined || last === undefined || after(last.id).length === 0) return undefined;
  if (core.fault === "early-empty-page" && cursor.pageIndex === 3) return "empty";
  if (core.fault === "early-no-token" && cursor.pageIndex === 2) return "no-token";
  return undefined;
}

/** A page of a listing: pagination exactly as the seed describes it, and as the fault (if any) bends it. */
export function listPage<T extends { id: number }>(
  core: SandboxCore,
  request: PageRequest<T>,
): PageOutcome<T> {
  const { sequence, pageSize, token, scope } = request;
  const size = core.fault === "oversized-pages" ? pageSize + 1 : pageSize;
  const phantoms = (afterId: number): T[] =>
    core.fault === "never-ending" && request.phantoms ? request.phantoms(afterId, size) : [];
  let cursor: Cursor;
  let records: T[];
  if (token !== undefined) {
    const received = core.fault === "token-mangled" ? token.replaceAll("+", " ") : token;
    const bound = core.fault === "foreign-token-accepted" ? undefined : scope;
    const decoded = core.tokens.decode(bound, received);
    if (!decoded.ok) return { ok: false, message: `The continuationToken is not valid: ${decoded.reason}.` };
    cursor = decoded.cursor;
    if (request.pageIndex !== undefined && request.pageIndex > 1) {
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
    const pageIndex = request.pageIndex ?? 1;
    records =
      pageIndex > 1
        ? sequence.slice((pageIndex - 1) * pageSize, request.direction, size)
        : sequence.page(START[request.direction], request.direction, size);
    cursor = { direction: request.direction, afterId: START[request.direction], pageIndex };
    if (records.length === 0 && pageIndex > 1) cursor = { ...cursor, afterId: END[request.direction] };
  }
  if (records.length === 0) records = phantoms(cursor.afterId);

  const early = earlyEnd(core, token, cursor, records, (afterId) =>
    sequence.page(afterId, cursor.direction, 1),
  );
  if (early === "empty") records = [];
  const last = records.at(-1);
  const continuationToken =
    early === "no-token"
      ? undefined
      : last !== undefined
        ? core.tokens.encode(scope, {
            direction: cursor.direction,
            afterId:
              core.fault === "drop-at-boundary" ? skipOne(sequence, cursor.direction, last.id) : last.id,
            pageIndex: cursor.pageIndex + 1,
          })
        : (token ?? core.tokens.encode(scope, cursor));

  const pagination: PaginationObject = {
    pageSize,
    pageIndex: cursor.pageIndex,
    ...(continuationToken === undefined ? {} : { continuationToken }),
  };
  const counts = countsFor(core, request.rules, request.withCount);
  switch (counts) {
    case "real":
    case "not-applicable": {
      const total = sequence.total + (core.fault === "wrong-counts" ? 1 : 0);
      return {
        ok: true,
        records,
        pagination: {
          pageSize,
          totalCount: total,
          pageIndex: cursor.pageIndex,
          totalPages: core.fault === "totals-floor" ? Math.floor(total / size) : Math.ceil(total / size),
          ...(continuationToken === undefined ? {} : { continuationToken }),
        },
      };
    }
    case "minus-one":
      return {
        ok: true,
        records,
        pagination: {
          pageSize,
          totalCount: -1,
          pageIndex: cursor.pageIndex,
          totalPages: -1,
          ...(continuationToken === undefined ? {} : { continuationToken }),
        },
      };
    case "absent":
      return { ok: true, records, pagination };
  }
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

/**
 * The tokens a clean crawl of a listing meets at `pageSize`, newest first: the one leading to the second
 * page and the one leading to the final empty page (provider state "a form with entries"). `form` is
 * the form of a form's listing, undefined for an organization's.
 */
export function crawlTokens(
  core: SandboxCore,
  route: Route,
  organizationSlug: string,
  form: FormDef | undefined,
  pageSize: number,
): { secondPageToken: string; finalPageToken: string } {
  const scope = listingScope(route, organizationSlug, form);
  const sequence = core.store.sequence(organizationSlug, form);
  const pages = Math.max(1, Math.ceil(sequence.total / pageSize));
  const tokenAfter = (page: number) => {
    const last = sequence.slice((page - 1) * pageSize, "desc", pageSize).at(-1);
    return core.tokens.encode(scope, {
      direction: "desc",
      afterId: last ? last.id : START.desc,
      pageIndex: last ? page + 1 : 1,
    });
  };
  return { secondPageToken: tokenAfter(1), finalPageToken: tokenAfter(pages) };
}
