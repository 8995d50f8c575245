import { completenessCheck } from "./completeness.js";

/**
 * Pagination rule 3: a client stops at the first empty page, so an empty page before the last entry loses
 * every entry after it. A loss is reported only when a fresh crawl confirms it (`completeness.ts`).
 */
export const emptyPageOnlyAtEndCheck = completenessCheck(
  "pagination/empty-page-only-at-end",
  "pagination.empty-page-only-at-end",
  "An empty page comes only at the end",
  "listings whose empty page came after their last entry",
);
