/**
 * Redaction of HTML bodies (`text/html`): a login or payment page carries its secrets in elements that
 * name them, `<input type="hidden" name="csrf_token" value="…">`, `<meta name="csrf-token"
 * content="…">`. An element whose `name`, `id` or `property` is a secret's name has its `value` or
 * `content` replaced (a personal one faked with `--redact-pii`); an attribute itself named like a
 * secret (`data-api-key="…"`) too. The rest is scrubbed as text.
 */
import { fieldValue, isSensitiveField, type Redactor, scrubText } from "./redactor.js";

/** Whether a body's type is HTML. */
export function isHtmlType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*text\/html\b/i.test(contentType);
}

/** A start tag with attributes (an element without any names nothing). */
const TAG = /<[a-z][\w-]*\s[^<>]*>/gi;

/** An attribute: its name and value, quoted either way. */
const ATTRIBUTE = /(\s([\w:.-]+)\s*=\s*)(?:"([^"]*)"|'([^']*)')/g;

/** The attributes that name an element, and those that hold what it names. */
const NAMING = new Set(["name", "id", "property"]);
const HOLDING = new Set(["value", "content"]);

/** The secret name a start tag gives its value, if any. */
function nameOf(tag: string, r: Redactor): string | undefined {
  for (const m of tag.matchAll(ATTRIBUTE)) {
    const value = m[3] ?? m[4] ?? "";
    if (NAMING.has((m[2] ?? "").toLowerCase()) && isSensitiveField(value, r)) return value;
  }
  return undefined;
}

/**
 * Whether a page holds an element that names a secret, by a naming attribute or an attribute's own name:
 * a page too large to rewrite whole unless it does.
 */
export function pageNamesSecret(text: string, r: Redactor): boolean {
  for (const [tag] of text.matchAll(TAG)) {
    if (nameOf(tag, r) !== undefined) return true;
    for (const m of tag.matchAll(ATTRIBUTE)) if (isSensitiveField((m[2] ?? "").toLowerCase(), r)) return true;
  }
  return false;
}

/** A start tag with its secrets replaced. */
function redactTag(tag: string, r: Redactor): string {
  const named = nameOf(tag, r);
  return tag.replace(ATTRIBUTE, (found, head: string, name: string, double?: string, single?: string) => {
    const lower = name.toLowerCase();
    const under =
      named !== undefined && HOLDING.has(lower) ? named : isSensitiveField(lower, r) ? lower : undefined;
    if (under === undefined) return found;
    const quote = double === undefined ? "'" : '"';
    return `${head}${quote}${fieldValue(under, double ?? single ?? "", r)}${quote}`;
  });
}

/**
 * HTML text as it may be written (see the module).
 *
 * @example redactHtmlText('<input name="csrf_token" value="abc">', r) // '<input name="csrf_token" value="<secret:…>">'
 */
export function redactHtmlText(text: string, r: Redactor): string {
  return scrubText(
    text.replace(TAG, (tag) => redactTag(tag, r)),
    r,
  );
}
