import type { Diagnostic } from "../types.js";

const COUNT_PATH = /^response\.pagination\.total(Count|Pages)\b/;

/**
 * The schema findings of a page that are about its counts (`totalCount`, `totalPages`): the count rules
 * own those, whoever validated the page (verify's count checks, `verify --cassette` and lint).
 */
export function countFindingsOf(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => COUNT_PATH.test(d.path));
}
