/**
 * What listings say of each other: an item names its order and its payments, an order its payments and
 * its items, a payment its order and its items (`pagination.names` in routes.yaml). A crawl of one
 * listing thereby vouches for entries of the others in the same scope, so a listing that always leaves
 * the same entries out, at every page size, in every order, with totals that agree, is still seen to lose
 * them. (In the seed an entry of the items listing may be an order's line rather than one item: a
 * witness whose ids the listing never serves is set aside, `namedWitnesses`.)
 */
import type { NamedListing } from "../types.js";
import type { CrawlLog, CrawlPageLog, EntryId } from "./crawl.js";

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
export const valueAt = (entry: unknown, path: string): unknown =>
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

/** The kinds of entry (`entryKind`) a listing's crawls served: what its default filters let through. */
export function servedKinds(crawls: readonly CrawlLog[]): Set<string> {
  const kinds = new Set<string>();
  for (const crawl of crawls) {
    for (const page of crawl.pages)
      for (const kind of page.kinds ?? []) if (kind !== undefined) kinds.add(kind);
  }
  return kinds;
}

/**
 * The entries of `target` that a crawl of another listing names, as a crawl of a part of `target`'s
 * listing: the completeness judge's witness (`judgeCompleteness`). Where `target` may filter by default
 * (`served` given), an entry vouches only when the target served its kind; one of unknown kind, never.
 * Its time is the naming crawl's: it vouches for entries that existed while that crawl ran.
 *
 * @example
 * const witness = namedWitness(itemsCrawl, "v5.form-orders", "v5.form-items");
 * judgeCompleteness(orderCrawls, [witness]);
 */
export function namedWitness(
  naming: CrawlLog,
  target: string,
  namingRoute: string,
  served?: ReadonlySet<string>,
): CrawlLog {
  const pages: CrawlPageLog[] = naming.pages.map((page) => {
    const named = page.named?.[target];
    const keep = (i: number) => {
      if (!served) return true;
      const kind = named?.kinds?.[i];
      return kind !== undefined && served.has(kind);
    };
    const at = (named?.ids ?? []).flatMap((_, i) => (keep(i) ? [i] : []));
    return {
      index: page.index,
      url: page.url,
      sentToken: page.sentToken,
      status: page.status,
      ids: at.map((i) => named?.ids[i] as EntryId),
      dates: at.map((i) => named?.dates[i] ?? Number.NaN),
      token: page.token,
    };
  });
  return {
    label: `${namingRoute} (${naming.label})`,
    namedBy: `the entries of ${namingRoute} (${naming.label}) name`,
    pageSize: naming.pageSize,
    startedAt: naming.startedAt,
    endedAt: naming.endedAt,
    pages,
    end: naming.end,
  };
}
