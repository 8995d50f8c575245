import { type CrawlLog, type CrawlPageLog, type EntryId, idsOfCrawl } from "./crawl.js";

/** Entries a form's listing served that its organization's listing left out, confirmed. */
export interface Omission {
  /** Their ids, in the order the form's crawls met them. */
  readonly missing: readonly EntryId[];
  /** The form's crawl that served the first of them, and the page it came on. */
  readonly formCrawl: CrawlLog;
  readonly page: CrawlPageLog;
  /** A crawl of the organization's listing that started after that one ended, and still lacks it. */
  readonly witness: CrawlLog;
}

/** What the crawls of a form's listing and of its organization's listing say together. */
export interface Containment {
  /** Distinct entries over the form's crawls. */
  readonly formEntries: number;
  /** Distinct entries over the organization's crawls. */
  readonly organizationEntries: number;
  readonly omission: Omission | undefined;
  /**
   * Entries the organization's crawls lack where each of them started before the form's crawls that
   * served the entry had ended: entries the organization may have gained since. A crawl of the
   * organization's listing made after confirms them or clears them.
   */
  readonly unconfirmed: readonly EntryId[];
}

/**
 * Judges a form's listing against its organization's listing of the same kind: every entry a crawl of
 * the form served must be in some crawl of the organization. An entry none of them holds is lost only
 * when one of those crawls started after a form's crawl that served it had ended: it existed all along.
 * Crawls that kept no pages (`unlogged`) are left out.
 */
export function judgeContainment(form: readonly CrawlLog[], organization: readonly CrawlLog[]): Containment {
  const organizationCrawls = organization.filter((c) => !c.unlogged);
  const held = new Set<EntryId>();
  for (const crawl of organizationCrawls) for (const id of idsOfCrawl(crawl)) held.add(id);
  const formIds = new Set<EntryId>();
  /** Confirmed omissions, in the order the form's crawls met them. */
  const confirmed = new Set<EntryId>();
  const maybe = new Set<EntryId>();
  /** Where the first confirmed omission was seen. */
  let first: Omit<Omission, "missing"> | undefined;
  for (const crawl of form.filter((c) => !c.unlogged)) {
    const witness = organizationCrawls.find((o) => o.startedAt >= crawl.endedAt);
    for (const page of crawl.pages) {
      for (const id of page.ids) {
        formIds.add(id);
        if (held.has(id)) continue;
        if (!witness) {
          maybe.add(id);
          continue;
        }
        confirmed.add(id);
        first ??= { formCrawl: crawl, page, witness };
      }
    }
  }
  return {
    formEntries: formIds.size,
    organizationEntries: held.size,
    omission: first ? { ...first, missing: [...confirmed] } : undefined,
    unconfirmed: [...maybe].filter((id) => !confirmed.has(id)),
  };
}

/**
 * The crawls as they would be with only the entries that name `form` (`formType/formSlug`, any case):
 * what an organization's listing says one of its forms holds. Crawls that kept no forms keep nothing.
 *
 * @example
 * judgeContainment(logsNaming(organizationLogs, "Event/gala"), formLogs); // the form holds them all
 */
export function logsNaming(crawls: readonly CrawlLog[], form: string): CrawlLog[] {
  const key = form.toLowerCase();
  return crawls.map((crawl) => ({
    ...crawl,
    pages: crawl.pages.map((page) => {
      const kept = (_: unknown, i: number) => page.forms?.[i] === key;
      return {
        ...page,
        ids: page.ids.filter(kept),
        ...(page.dates ? { dates: page.dates.filter(kept) } : {}),
        ...(page.forms ? { forms: page.forms.filter(kept) } : {}),
        ...(page.organizations ? { organizations: page.organizations.filter(kept) } : {}),
        ...(page.digests ? { digests: page.digests.filter(kept) } : {}),
      };
    }),
  }));
}

/** What an entry names as its owner: its form (`formType/formSlug`) or its organization (`organizationSlug`). */
export type Owner = "form" | "organization";

/** Where a page keeps the owner of each of its entries (absent where the reader kept none). */
const OWNERS = { form: "forms", organization: "organizations" } as const;

/** Entries a listing served that name another owner than the one it was asked for. */
export interface ForeignEntries {
  /** Their ids, in the order the crawls met them. */
  readonly ids: readonly EntryId[];
  /** The owner the first of them names (`formtype/formslug` or `organizationslug`, lower case). */
  readonly names: string;
  /** The crawl and the page that served the first of them. */
  readonly crawl: CrawlLog;
  readonly page: CrawlPageLog;
}

/**
 * The entries of crawls that name an `owner` other than `own` (a form's `formType/formSlug`, or an
 * organization's slug, any case) on themselves or their order; undefined when there are none. An entry
 * that names none is no evidence either way, and neither is a crawl that kept none.
 *
 * @example
 * foreignEntries(formLogs, "form", "Event/gala")?.names; // "membership/adhesion": the form's listing serves another's entries
 */
export function foreignEntries(
  crawls: readonly CrawlLog[],
  owner: Owner,
  own: string,
): ForeignEntries | undefined {
  const key = own.toLowerCase();
  const ids = new Set<EntryId>();
  let first: Omit<ForeignEntries, "ids"> | undefined;
  for (const crawl of crawls) {
    for (const page of crawl.pages) {
      const owners = page[OWNERS[owner]];
      page.ids.forEach((id, i) => {
        const names = owners?.[i];
        if (names === undefined || names === key) return;
        ids.add(id);
        first ??= { names, crawl, page };
      });
    }
  }
  return first ? { ...first, ids: [...ids] } : undefined;
}
