import type { CrawlEnd, CrawlLog, EntryId } from "../../contracts/index.js";

/** The ids `first … first - count + 1`, newest first, as the service lists them. */
export function desc(first: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => first - i);
}

/**
 * A crawl of `ids` cut into pages of `sizes` (the last size repeats), ended as `end`, run from `start` to
 * `start + 1` on the judge's clock. `pages` overrides the cutting with explicit pages. `dated` gives each
 * entry a date, a second per id (so a higher id is newer; integer ids only), as a crawl of a date window needs.
 */
export function crawlOf(
  label: string,
  ids: readonly EntryId[],
  options: {
    sizes?: readonly number[];
    start: number;
    end?: CrawlEnd;
    pages?: readonly (readonly EntryId[])[];
    dated?: boolean;
  },
): CrawlLog {
  const pages: EntryId[][] = options.pages ? options.pages.map((p) => [...p]) : [];
  if (!options.pages) {
    const sizes = options.sizes ?? [20];
    let at = 0;
    while (at < ids.length) {
      const size = sizes[Math.min(pages.length, sizes.length - 1)] ?? 20;
      pages.push(ids.slice(at, at + size));
      at += size;
    }
  }
  const end = options.end ?? "empty-page";
  if (end === "empty-page") pages.push([]);
  return {
    label,
    pageSize: options.sizes?.[0],
    startedAt: options.start,
    endedAt: options.start + 1,
    end,
    pages: pages.map((page, i) => ({
      index: i + 1,
      url: `http://127.0.0.1/v5/list?page=${i + 1}`,
      sentToken: i === 0 ? undefined : `t${i}`,
      status: 200,
      ids: page,
      ...(options.dated ? { dates: page.map((id) => Number(id) * 1000) } : {}),
      token: i === pages.length - 1 && end === "no-token" ? undefined : `t${i + 1}`,
    })),
  };
}
