/**
 * A crawl as the judges read it: every page in order, with the request that got it, the ids it held and
 * the token it gave. Verify's crawler writes one per walk of a listing; the judges never send requests.
 */
import type { Held, NamedOnPage } from "./page.js";

/**
 * What names an entry across the crawls of its listing: its integer `id`, or where the listing's entries
 * carry none, the fields its route names (`entryKey`) joined by `/` (`Event/gala-annuel`).
 */
export type EntryId = number | string;

/** One page of a crawl. */
export interface CrawlPageLog {
  /** Its place in the crawl, from 1. */
  readonly index: number;
  /** The request's URL as sent, token included. */
  readonly url: string;
  /** The token sent to get this page; `undefined` for the first page. */
  readonly sentToken: string | undefined;
  readonly status: number;
  /** The ids of its entries, in order. */
  readonly ids: readonly EntryId[];
  /**
   * The `date` of each entry of `ids`, in milliseconds since the epoch (NaN where it has none); absent
   * where the reader kept no dates.
   */
  readonly dates?: readonly number[];
  /**
   * The form each entry of `ids` names (`formType/formSlug`, lower case, from the entry or its `order`),
   * `undefined` where it names none; absent where the reader kept none.
   */
  readonly forms?: readonly (string | undefined)[];
  /**
   * The organization each entry of `ids` names (`organizationSlug`, lower case, from the entry or its
   * `order`), `undefined` where it names none; absent where the reader kept none.
   */
  readonly organizations?: readonly (string | undefined)[];
  /** The fingerprint of each entry of `ids` (`entryDigest`); absent where the reader kept none. */
  readonly digests?: readonly number[];
  /**
   * Each entry's values of its listing's `filteredBy` (`entryKind`); absent where the listing has none.
   */
  readonly kinds?: readonly (string | undefined)[];
  /** The entries of other listings this page's entries name, by route id (`namedOnPage`). */
  readonly named?: Readonly<Record<string, NamedOnPage>>;
  /** The entries its entries hold under other ids (`heldBy`, `pagination.holds`); absent where none. */
  readonly held?: Held;
  /** The token it gave for the next page; `undefined` when absent, null, empty or not a string. */
  readonly token: string | undefined;
}

/** How a crawl ended: on an empty page, on a non-empty page without a token, or cut by a violation. */
export type CrawlEnd = "empty-page" | "no-token" | "cut";

/** One walk of a listing, from its first page to its end. */
export interface CrawlLog {
  /** What the report calls it: `pageSize 7`, `default page size (again)`. */
  readonly label: string;
  /**
   * Where the crawl is another listing's names (`namedWitness`): what the report says in place of "has"
   * (`the entries of v5.form-items (pageSize 100) name`).
   */
  readonly namedBy?: string;
  /** The page size asked for; `undefined` when none was sent. */
  readonly pageSize: number | undefined;
  /** True when it was asked oldest first (`sortOrder=Asc`): its entries come in the reverse order. */
  readonly ascending?: boolean;
  /**
   * The query it was asked with, the continuation token aside (`[["pageSize", "7"]]`): what asks the
   * same crawl again. Absent in logs written before it was kept.
   */
  readonly query?: readonly (readonly [string, string])[];
  /** The name its token went back under, where not `continuationToken` (`continuationtoken`). */
  readonly tokenName?: string;
  /**
   * When it started and ended: its first request's going out and its last answer's coming in, on one
   * clock for every crawl of the listing that only moves forward (verify's: a count of its requests'
   * events), so a crawl asked after another's end always starts later. NaN where it sent nothing.
   */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly pages: readonly CrawlPageLog[];
  readonly end: CrawlEnd;
  /**
   * True when the crawl kept no pages: it held more entries than its log was allowed to keep (verify's
   * `--max-entries`), so the judges leave it out.
   */
  readonly unlogged?: boolean;
}

/** Every id a crawl collected, once each. */
export function idsOfCrawl(crawl: CrawlLog): Set<EntryId> {
  const ids = new Set<EntryId>();
  for (const page of crawl.pages) for (const id of page.ids) ids.add(id);
  return ids;
}

/** The ids of a crawl in the order it met them (an id seen twice counts at its first place). */
export function orderOfCrawl(crawl: CrawlLog): EntryId[] {
  return [...idsOfCrawl(crawl)];
}

/**
 * What listings say of each other: an item names its order and its payments, an order its payments and
 * its items, a payment its order and its items (`pagination.names` in routes.yaml). A crawl of one
 * listing thereby vouches for entries of the others in the same scope, so a listing that always leaves
 * the same entries out, at every page size, in every order, with totals that agree, is still seen to lose
 * them. (In the seed an entry of the items listing may be an order's line rather than one item: a
 * witness whose ids the listing never serves is set aside, `namedWitnesses`.)
 */

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
