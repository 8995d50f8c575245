/**
 * The test the recorder's fast paths (bodies written to the cassette as they came, `raw-text.ts`,
 * `json-yaml.ts`) pass before they may run: it answers from the same lists and shapes the general path
 * redacts with, so that a body the fast paths write holds nothing the general path would have replaced.
 */
import { mayHoldPattern } from "./patterns.js";
import { isSensitiveField, type Redactor } from "./redactor.js";

/** A key holding an escape (`"\u0061ccess_token":`), which word filters cannot read. */
const ESCAPED_KEY = /"((?:[^"\\\n]|\\.)*\\(?:[^"\\\n]|\\.)*)"\s*:/g;

function keyName(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Whether a key of the JSON-like `view` (any characters, escapes decoded) is one `r` must redact. */
function hasSensitiveKey(view: string, r: Redactor): boolean {
  for (const found of view.matchAll(r.fields.keyFilter(r.pii))) {
    const open = view.lastIndexOf('"', found.index);
    const close = view.indexOf('"', found.index);
    if (open < 0 || close < 0) continue;
    let after = close + 1;
    while (view.charCodeAt(after) === 0x20 || view.charCodeAt(after) === 0x09) after++;
    if (view.charCodeAt(after) === 0x3a && isSensitiveField(keyName(view.slice(open + 1, close)), r))
      return true;
  }
  if (!view.includes("\\")) return false;
  for (const found of view.matchAll(ESCAPED_KEY)) {
    if (isSensitiveField(keyName(found[1] ?? ""), r)) return true;
  }
  return false;
}

/**
 * Whether a body must take the general path: it may hold a secret of a recognised shape (a JWT, a
 * bearer credential, a card number, an IBAN; an e-mail with `pii`), or, with `keys`, a key that names a
 * secret however it is written. `view` is the body's bytes read as latin1.
 */
export function fastPathDeclines(view: string, r: Redactor, keys: boolean): boolean {
  return mayHoldPattern(view, r.pii) || (keys && hasSensitiveKey(view, r));
}
