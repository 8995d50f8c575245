/**
 * The one reader of a listing page: the result array (or why there is none), the entry ids, the
 * continuation token and the counts. Every room that reads a page (verify's crawls, the re-run of a
 * recorded session, lint, gate's layer, the tests' probes) reads it here, so they cannot disagree on
 * what a page holds.
 */
import type { NamedListing, PaginationSpec, Route } from "../types.js";
import type { CrawlPageLog, EntryId } from "./crawl.js";

/** The counts a page declares in its `pagination` object, as they came (not checked). */
export interface PageCounts {
  readonly totalCount: unknown;
  readonly totalPages: unknown;
  readonly pageSize: unknown;
}

/**
 * A page read: its entries and, as a crawl's log keeps them (`CrawlPageLog`), the ids of those that have
 * one (`entryId`) in order, with their dates, forms, organizations and fingerprints, what the reader was
 * given to keep besides (`kinds` for `filteredBy`, `named` for `names`, `held` for `holds`), and the token.
 */
export type ListingPage = Pick<CrawlPageLog, "ids" | "kinds" | "named" | "held" | "token"> &
  Required<Pick<CrawlPageLog, "dates" | "forms" | "organizations" | "digests">> & {
    readonly ok: true;
    readonly entries: readonly unknown[];
    /** The `pagination` object as it came, `undefined` when there is none. */
    readonly pagination: Readonly<Record<string, unknown>> | undefined;
    /** The counts it declares; `undefined` when the page has no `pagination` object. */
    readonly counts: PageCounts | undefined;
  };

/** Why a body is no page: the result array is missing, or is not a list. */
export interface NotAPage {
  readonly ok: false;
  readonly why: string;
}

export type PageRead = ListingPage | NotAPage;

/** The entries of one named listing that one page names: ids, dates and kinds side by side. */
export interface NamedOnPage {
  readonly ids: readonly EntryId[];
  /** Each one's `date` (its own, else the naming entry's), in milliseconds; NaN where neither has one. */
  readonly dates: readonly number[];
  /** Each one's values of the named listing's `filteredBy` (`entryKind`); absent where it has none. */
  readonly kinds?: readonly (string | undefined)[];
}

const fieldsOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/** The value at a dotted path of an entry (`organization.organizationSlug`); undefined where there is none. */
const valueAt = (entry: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((value, name) => fieldsOf(value)?.[name], entry);

/**
 * What an entry is, as far as a listing's default filters go: its values of `fields` joined by `/`
 * (`Processed/Donation`), `undefined` when one is missing or not a string or a number.
 *
 * @example
 * entryKind({ state: "Processed", type: "Donation" }, ["state", "type"]); // "Processed/Donation"
 */
export function entryKind(entry: unknown, fields: readonly string[]): string | undefined {
  const values = fields.map((field) => fieldsOf(entry)?.[field]);
  return values.every((v) => typeof v === "string" || typeof v === "number") ? values.join("/") : undefined;
}

/** Entries held inside others: each held id beside the id of the entry holding it. */
export interface Held {
  readonly ids: readonly EntryId[];
  readonly by: readonly EntryId[];
}

/**
 * The entries an entry holds (`pagination.holds`) under other ids than its own: what a witness naming a
 * held entry finds in its holder. Two lists side by side, as a page's ids and dates are (a crawl of
 * 100,000 entries keeps them).
 *
 * @example
 * heldBy([{ id: 1, items: [{ id: 1 }, { id: 9 }] }], [1], "items"); // { ids: [9], by: [1] }
 */
export function heldBy(
  entries: readonly unknown[],
  ids: readonly (EntryId | undefined)[],
  holds: string,
): Held {
  const held: EntryId[] = [];
  const by: EntryId[] = [];
  entries.forEach((entry, i) => {
    const holder = ids[i];
    if (holder === undefined) return;
    const at = valueAt(entry, holds);
    for (const object of Array.isArray(at) ? at : [at]) {
      const id = fieldsOf(object)?.id;
      if (typeof id === "number" && Number.isInteger(id) && id !== holder) {
        held.push(id);
        by.push(holder);
      }
    }
  });
  return { ids: held, by };
}

const dateOf = (value: unknown): number => {
  const date = fieldsOf(value)?.date;
  return typeof date === "string" ? Date.parse(date) : Number.NaN;
};

/** The entries of each named listing that a page's entries name, by the named listing's route id. */
export function namedOnPage(
  entries: readonly unknown[],
  names: readonly NamedListing[],
): Readonly<Record<string, NamedOnPage>> {
  const found: Record<string, NamedOnPage> = {};
  for (const named of names) {
    const ids: EntryId[] = [];
    const dates: number[] = [];
    const kinds: (string | undefined)[] = [];
    for (const entry of entries) {
      const at = valueAt(entry, named.at);
      for (const object of Array.isArray(at) ? at : [at]) {
        const id = fieldsOf(object)?.id;
        if (typeof id !== "number" || !Number.isInteger(id)) continue;
        ids.push(id);
        const own = dateOf(object);
        dates.push(Number.isNaN(own) ? dateOf(entry) : own);
        if (named.filteredBy) kinds.push(entryKind(object, named.filteredBy));
      }
    }
    found[named.route] = named.filteredBy ? { ids, dates, kinds } : { ids, dates };
  }
  return found;
}

/** The `pagination` object of a body, when it has one. */
export function paginationOf(body: unknown): Readonly<Record<string, unknown>> | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const pagination = (body as Record<string, unknown>).pagination;
  return pagination !== null && typeof pagination === "object" && !Array.isArray(pagination)
    ? (pagination as Record<string, unknown>)
    : undefined;
}

/** The counts a body declares, `undefined` without a `pagination` object. */
export function countsOf(body: unknown): PageCounts | undefined {
  const p = paginationOf(body);
  return p && { totalCount: p.totalCount, totalPages: p.totalPages, pageSize: p.pageSize };
}

/**
 * What names an entry: its `id` when it is an integer or, given the route's `entryKey`, those fields'
 * text joined by `/` when each is a string that is not empty; `undefined` otherwise.
 *
 * @example
 * entryId({ formType: "Event", formSlug: "gala" }, ["formType", "formSlug"]); // "Event/gala"
 */
export function entryId(entry: unknown, key?: readonly string[]): EntryId | undefined {
  if (!key) {
    const id = entry !== null && typeof entry === "object" ? (entry as { id?: unknown }).id : undefined;
    return typeof id === "number" && Number.isInteger(id) ? id : undefined;
  }
  const parts = key.map((path) => valueAt(entry, path));
  return parts.every((part) => typeof part === "string" && part !== "") ? parts.join("/") : undefined;
}

/** A timestamp's zone: `Z` or a UTC offset. Without one the instant is not known. */
const ZONED = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The `date` of an entry (ISO 8601 with a UTC offset, as the service writes it) in milliseconds since the
 * epoch; NaN without one, or without a zone (which `schema.responses` reports).
 */
export function entryDate(entry: unknown): number {
  const date = entry !== null && typeof entry === "object" ? (entry as { date?: unknown }).date : undefined;
  return typeof date === "string" && ZONED.test(date) ? Date.parse(date) : Number.NaN;
}

/**
 * The form an entry names, as `formType/formSlug` in lower case: an order's own fields, or those of the
 * `order` an item or a payment points at; `undefined` when it names none.
 */
export function entryForm(entry: unknown): string | undefined {
  for (const holder of [entry, valueAt(entry, "order")]) {
    const [formType, formSlug] = [valueAt(holder, "formType"), valueAt(holder, "formSlug")];
    if (typeof formType === "string" && typeof formSlug === "string")
      return `${formType}/${formSlug}`.toLowerCase();
  }
  return undefined;
}

/**
 * The organization an entry names, as its `organizationSlug` in lower case: an order's own, or that of the
 * `order` an item or a payment points at; `undefined` when it names none.
 */
export function entryOrganization(entry: unknown): string | undefined {
  const slug = valueAt(entry, "organizationSlug") ?? valueAt(entry, "order.organizationSlug");
  return typeof slug === "string" && slug !== "" ? slug.toLowerCase() : undefined;
}

/** FNV-1a, 32 bits, over `text`, from `hash`. */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** A scalar as text for the fingerprint (strings as they are, the rest by `String`, marked apart). */
const scalarText = (value: unknown) => (typeof value === "string" ? value : `\u0000${String(value)}`);

/**
 * The fingerprint of an object's scalar fields, and those of its objects `depth` levels down, and the
 * lengths of its lists: one hash a field (its path and value), summed, so the order of keys does not count.
 */
function fieldsHash(value: Record<string, unknown>, path: number, depth: number): number {
  let sum = 0;
  for (const key in value) {
    const field = value[key];
    const named = fnv(path, key);
    if (field === null || typeof field !== "object") {
      sum = (sum + Math.imul(fnv(named ^ 0x3d, scalarText(field)), 0x9e3779b1)) | 0;
    } else if (Array.isArray(field)) {
      sum = (sum + Math.imul(fnv(named ^ 0x23, String(field.length)), 0x9e3779b1)) | 0;
    } else if (depth > 0) {
      sum = (sum + fieldsHash(field as Record<string, unknown>, fnv(named, "."), depth - 1)) | 0;
    }
  }
  return sum;
}

/**
 * A fingerprint of an entry as it reads: its scalar fields and those of its objects, and the length of its
 * lists, whatever the order a provider writes the keys in. Two entries with
 * the same id and different fingerprints read differently (an amount, a state, a name); the crawl judge
 * compares them across crawls (`judgeSameness`).
 */
export function entryDigest(entry: unknown): number {
  return (
    (entry !== null && typeof entry === "object" && !Array.isArray(entry)
      ? fieldsHash(entry as Record<string, unknown>, 0x811c9dc5, 1)
      : fnv(0x811c9dc5, scalarText(entry))) >>> 0
  );
}

/**
 * Reads a parsed body as a page of a listing whose result array is `resultArray` (`data` or `items`),
 * naming its entries by `entryKey` where the route gives one (`entryId`).
 *
 * @example
 * const page = readPage(JSON.parse(text), "data");
 * if (page.ok && page.entries.length > 0 && page.token) next(page.token);
 */
export function readPage(
  body: unknown,
  resultArray: string,
  entryKey?: readonly string[],
  across?: Pick<PaginationSpec, "filteredBy" | "names" | "holds">,
): PageRead {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return {
      ok: false,
      why: `the body is ${body === null ? "null" : Array.isArray(body) ? "a list" : typeof body}, not an object with "${resultArray}"`,
    };
  }
  const list = (body as Record<string, unknown>)[resultArray];
  if (!Array.isArray(list)) {
    return {
      ok: false,
      why:
        list === undefined
          ? `the result array "${resultArray}" is missing`
          : `"${resultArray}" is ${list === null ? "null" : typeof list}, not a list`,
    };
  }
  const ids: EntryId[] = [];
  const dates: number[] = [];
  const forms: (string | undefined)[] = [];
  const organizations: (string | undefined)[] = [];
  const digests: number[] = [];
  const filteredBy = across?.filteredBy;
  const kinds: (string | undefined)[] = [];
  // One string for each form, organization and kind a page names: a crawl of 100,000 entries keeps
  // every entry's, most of them alike.
  const texts = new Map<string, string>();
  const once = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const known = texts.get(text);
    if (known !== undefined) return known;
    texts.set(text, text);
    return text;
  };
  const holders: (EntryId | undefined)[] = [];
  for (const entry of list) {
    const id = entryId(entry, entryKey);
    if (across?.holds) holders.push(id);
    if (id === undefined) continue;
    ids.push(id);
    if (filteredBy) kinds.push(once(entryKind(entry, filteredBy)));
    dates.push(entryDate(entry));
    forms.push(once(entryForm(entry)));
    organizations.push(once(entryOrganization(entry)));
    digests.push(entryDigest(entry));
  }
  const pagination = paginationOf(body);
  const token = pagination?.continuationToken;
  return {
    ok: true,
    entries: list,
    ids,
    dates,
    forms,
    organizations,
    digests,
    ...(filteredBy ? { kinds } : {}),
    ...(across?.names ? { named: namedOnPage(list, across.names) } : {}),
    ...(across?.holds ? { held: heldBy(list, holders, across.holds) } : {}),
    token: typeof token === "string" && token !== "" ? token : undefined,
    pagination,
    counts: countsOf(body),
  };
}

/**
 * Reads a parsed body as a page of `route`'s listing: its result array, its entries named as the route
 * names them (`entryKey`, else the integer `id`), their kinds (`filteredBy`), what they hold (`holds`) and, with `withNames`, the
 * entries of other listings they name (`names`: only the crawls kept as witnesses need them).
 *
 * @example
 * const page = readRoutePage(JSON.parse(text), contract.routes.byId("v5.organization-forms"));
 */
export function readRoutePage(body: unknown, route: Route, withNames = false): PageRead {
  const pagination = route.pagination;
  return readPage(body, pagination?.resultArray ?? "data", pagination?.entryKey, {
    filteredBy: pagination?.filteredBy,
    holds: pagination?.holds,
    names: withNames ? pagination?.names : undefined,
  });
}
