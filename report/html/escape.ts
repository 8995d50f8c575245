import { xmlEscape } from "../xml.js";

/**
 * Text made safe for HTML content and double-quoted attribute values (the only quoting the HTML writer
 * uses): what XML needs suffices, `& < > "` as entities and characters XML 1.0 cannot carry dropped, so
 * report/ keeps one escaper (`report/xml.ts`). Every piece of text the HTML report shows goes through it.
 *
 * @example
 * escapeHtml('<a href="x">'); // the markup as text, never as markup
 */
export const escapeHtml: (text: string) => string = xmlEscape;

/**
 * A fragment identifier for an anchor: letters, digits, `-` and `.` kept, anything else (`_` too) as
 * `_HEX_` of its code point, so two different names never share an anchor.
 *
 * @example
 * anchorOf("rule", "pagination.token-echoed"); // "rule-pagination.token-echoed"
 */
export function anchorOf(prefix: string, name: string): string {
  return `${prefix}-${[...name].map((c) => (/[A-Za-z0-9.-]/.test(c) ? c : `_${(c.codePointAt(0) ?? 0).toString(16)}_`)).join("")}`;
}

/** `text` (already HTML) as a link to `rule`'s entry in the report's rules, when the report lists it. */
export function ruleLink(rule: string, text: string, known: ReadonlySet<string>): string {
  return known.has(rule) ? `<a href="#${anchorOf("rule", rule)}">${text}</a>` : text;
}
