import type { Finding } from "../../core/finding.js";
import type { CrawlPageLog, EntryId } from "./crawl.js";
import type { ListingPage } from "./page.js";

/**
 * A rule one page breaks, judged in the light of the crawl so far, and the facts that show it: not yet a
 * `Finding` (verify's crawler makes them a crawl's stop and counts, a rerun files them on its step). The
 * result array itself is judged by `readPage` (a body that is no page is `pagination.result-array`'s);
 * counts and schemas are judged against the date by the contract's schemas.
 */
export type PageBreach = Pick<Finding, "rule"> &
  (
    | { readonly kind: "oversized"; readonly entries: number; readonly limit: number }
    | { readonly kind: "duplicate" | "token-ignored"; readonly ids: readonly EntryId[] }
    | { readonly kind: "token-repeated"; readonly token: string }
  );

/** @deprecated Renamed {@link PageBreach}: a finding is the one result type's word. */
export type PageFinding = PageBreach;

/** What the judge knows of the crawl before this page. */
export interface PageSoFar extends Pick<CrawlPageLog, "index" | "sentToken"> {
  /** The page size the request asked for, when it asked. */
  readonly requestedSize: number | undefined;
  /** Ids collected by the pages before it. */
  readonly seen: ReadonlySet<EntryId>;
  /** The ids of the crawl's first page (for a second page that repeats it). */
  readonly firstIds: readonly EntryId[] | undefined;
  /**
   * The crawl's first page's entries as JSON, where none carries an id (nor the fields its route names):
   * a second page that repeats it is told by its entries.
   */
  readonly firstEntries?: string;
}

/** The page size a page must not exceed: the smaller of what it declares and what was asked. */
export function pageSizeLimit(page: ListingPage, requestedSize: number | undefined): number | undefined {
  const limits = [page.counts?.pageSize, requestedSize].filter(
    (n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0,
  );
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * Judges one page of a crawl: no more entries than its page size, no entry collected before, a first
 * token that leads on rather than back to the first page, and a non-empty page whose token is not the one
 * it was asked with (the next call would repeat it forever).
 *
 * @example
 * const breaches = judgePage(page, { index: 2, requestedSize: 20, sentToken, seen, firstIds });
 */
export function judgePage(page: ListingPage, so: PageSoFar): PageBreach[] {
  const breaches: PageBreach[] = [];
  const limit = pageSizeLimit(page, so.requestedSize);
  if (limit !== undefined && page.entries.length > limit) {
    breaches.push({ kind: "oversized", rule: "pagination.page-size", entries: page.entries.length, limit });
  }
  const again = page.ids.filter((id) => so.seen.has(id));
  const repeatsFirst =
    page.ids.length > 0
      ? so.firstIds !== undefined && page.ids.join(",") === so.firstIds.join(",")
      : page.entries.length > 0 && so.firstEntries === JSON.stringify(page.entries);
  if (so.index === 2 && repeatsFirst) {
    breaches.push({ kind: "token-ignored", rule: "pagination.token-echoed", ids: page.ids });
  }
  if (again.length > 0) {
    breaches.push({ kind: "duplicate", rule: "pagination.no-duplicates", ids: again });
  }
  if (page.entries.length > 0 && page.token !== undefined && page.token === so.sentToken) {
    breaches.push({ kind: "token-repeated", rule: "pagination.end-is-empty-array", token: page.token });
  }
  return breaches;
}
