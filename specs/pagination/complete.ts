import { completenessCheck } from "./completeness.js";

/**
 * Pagination rules 4 and 6: a client that follows the tokens collects every entry. Crawled at three page
 * sizes, the listing must give the same entries, none lost between two pages. A loss is reported only when
 * a fresh crawl confirms it (`completeness.ts`).
 */
export const completeCheck = completenessCheck(
  "pagination/complete",
  "pagination.complete",
  "Every entry comes in a crawl, whatever the page size",
  "listings with the same entries at every page size",
);
