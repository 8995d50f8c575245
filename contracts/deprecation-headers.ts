import { parseItem } from "structured-headers";
import { parseHttpDate } from "../core/dates.js";

/**
 * Whether a field value is one RFC 9651 Date item (`@1751241600`, parameters allowed). structured-headers
 * 2.1.0 refuses a Date followed by parameters (`@1751241600;x=1`), so the `@` and its integer are
 * checked here and the item is parsed by the library as the same integer with the same parameters.
 */
function isStructuredDate(text: string): boolean {
  if (!/^@-?\d{1,15}(?=;|$)/.test(text)) return false;
  try {
    return Number.isInteger(parseItem(text.slice(1))[0]);
  } catch {
    return false;
  }
}

/**
 * What is malformed in an answer's `Deprecation` and `Sunset`, one sentence each; none when both are
 * absent or in the form their RFC requires: `Deprecation` an RFC 9651 Date (RFC 9745; the drafts'
 * `true` is no longer allowed), `Sunset` an IMF-fixdate (RFC 8594, RFC 9110 5.6.7). `get` reads a header
 * by its lower-case name, its values joined as HTTP joins them (a header sent twice is malformed).
 *
 * @example
 * malformedDeprecationHeaders((name) => ({ deprecation: "true" })[name]); // ['Deprecation "true" is …']
 */
export function malformedDeprecationHeaders(get: (name: string) => string | undefined): string[] {
  const out: string[] = [];
  const deprecation = get("deprecation");
  if (deprecation !== undefined && !isStructuredDate(deprecation)) {
    out.push(`Deprecation "${deprecation}" is not a structured-field Date such as @1751241600 (RFC 9745)`);
  }
  const sunset = get("sunset");
  if (sunset !== undefined && parseHttpDate(sunset) === undefined) {
    out.push(`Sunset "${sunset}" is not an HTTP-date such as Mon, 30 Jun 2025 00:00:00 GMT (RFC 8594)`);
  }
  return out;
}
