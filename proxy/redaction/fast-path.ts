/**
 * The test the recorder's fast paths (bodies written to the cassette as they came, `raw-text.ts`,
 * `json-yaml.ts`) pass before they may run: it answers from the same lists and shapes the general path
 * redacts with, so that a body the fast paths write holds nothing the general path would have replaced.
 */
import { mayHoldPattern } from "./patterns.js";
import { isSensitiveField, type Redactor } from "./redactor.js";
import { FORM_SECRET_NAMES } from "./secrets.js";

/** A key holding an escape (`"\u0061ccess_token":`), which word filters cannot read. */
const ESCAPED_KEY = /"((?:[^"\\\n]|\\.)*\\(?:[^"\\\n]|\\.)*)"\s*:/g;

function keyName(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Whether the key found at `index` of the JSON-like `view` (a string followed by `:`) is one `r` must redact. */
function sensitiveJsonKey(view: string, index: number, r: Redactor): boolean {
  const open = view.lastIndexOf('"', index);
  const close = view.indexOf('"', index);
  if (open < 0 || close < 0) return false;
  let after = close + 1;
  while (view.charCodeAt(after) === 0x20 || view.charCodeAt(after) === 0x09) after++;
  return view.charCodeAt(after) === 0x3a && isSensitiveField(keyName(view.slice(open + 1, close)), r);
}

/** Whether a key holding an escape (which word filters cannot read) is one `r` must redact. */
function sensitiveEscapedKey(view: string, r: Redactor): boolean {
  if (!view.includes("\\")) return false;
  for (const found of view.matchAll(ESCAPED_KEY)) {
    if (isSensitiveField(keyName(found[1] ?? ""), r)) return true;
  }
  return false;
}

/** A character of a name (`client_secret`, `ns:password` without its prefix). */
function nameChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2d ||
    code === 0x2e
  );
}

/**
 * Whether a secret name sits in `view` as something other than a plain JSON key: an XML element
 * (`<password>`, `<ns:password>`), a form or query pair or an XML attribute (`password=`), a key of JSON
 * held in a string (`\\"password\\":`); with `keys`, as a JSON key too, however it is written. One pass
 * of the key filter over the view serves every case; then `code=` / `state=` after `?`, `&` or `#`.
 */
function hasSecretName(view: string, r: Redactor, keys: boolean): boolean {
  for (const found of view.matchAll(r.fields.keyFilter(r.pii))) {
    let start = found.index;
    while (start > 0 && nameChar(view.charCodeAt(start - 1))) start--;
    let end = found.index + found[0].length;
    while (end < view.length && nameChar(view.charCodeAt(end))) end++;
    const before = view.charCodeAt(start - 1);
    const placed =
      before === 0x3c || // <
      before === 0x3a || // : (a namespace prefix)
      view.charCodeAt(end) === 0x3d || // =
      (before === 0x22 && view.charCodeAt(start - 2) === 0x5c); // \"
    if (placed && isSensitiveField(view.slice(start, end), r)) return true;
    if (keys && sensitiveJsonKey(view, found.index, r)) return true;
  }
  return FORM_PAIR.test(view) || (keys && sensitiveEscapedKey(view, r));
}

/** `code=` or `state=` after `?`, `&` or `#`: OAuth's secrets in a URL or a form. */
const FORM_PAIR = new RegExp(`[?&#](?:${FORM_SECRET_NAMES.join("|")})=`, "i");

/**
 * Whether a body must take the general path: it may hold a secret of a recognised shape (a known token
 * format, a JWT, a bearer credential, a card number, an IBAN; an e-mail with `pii`), a secret name placed
 * as an XML element, a form pair or a key of JSON held in a string, or, with `keys`, a key that names a
 * secret however it is written. `view` is the body's bytes read as latin1.
 */
export function fastPathDeclines(view: string, r: Redactor, keys: boolean): boolean {
  return mayHoldPattern(view, r.pii) || hasSecretName(view, r, keys);
}
