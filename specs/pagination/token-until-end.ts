import { completenessCheck } from "./completeness.js";

/**
 * Pagination rule 7: a client may stop at a non-empty page without a token, so such a page before the last
 * entry loses every entry after it. A loss is reported only when a fresh crawl confirms it
 * (`completeness.ts`).
 */
export const tokenUntilEndCheck = completenessCheck(
  "pagination/token-until-end",
  "pagination.token-until-end",
  "A non-empty page carries a token until the end",
  "listings with a token on every page before their end",
);
