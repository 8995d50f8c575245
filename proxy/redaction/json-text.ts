import type { Redactor } from "./redactor.js";
import { fieldValue } from "./redactor.js";

/** Words a key must contain to be looked at: it may hold a secret (or, with `pii`, a name or e-mail). */
export const SECRET_WORDS = "token|secret|key|password|verifier";
export const PII_WORDS = "name|mail";

/** `"key": "value"` at a given position (sticky): both JSON strings. */
const KEY_VALUE = /"([\w-]*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/y;

/** Characters of the keys the words are looked for in: letters, digits, `_` and `-`. */
export function isKeyChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2d
  );
}

/**
 * Redacts JSON kept as text (too large to store as a map, or not restorable byte for byte): the string
 * values of secret fields become placeholders (and personal fields fakes) in place, every other byte
 * stays, then known secrets are scrubbed. It works on the text without parsing it: it looks only where
 * one of the words occurs, at a key (in valid JSON, a string followed by `:` is always a key).
 */
export function redactJsonText(text: string, r: Redactor): string {
  const words = new RegExp(r.pii ? `${SECRET_WORDS}|${PII_WORDS}` : SECRET_WORDS, "gi");
  const sticky = new RegExp(KEY_VALUE.source, "y");
  let out = "";
  let copied = 0;
  for (const found of text.matchAll(words)) {
    let start = found.index;
    while (start > 0 && isKeyChar(text.charCodeAt(start - 1))) start--;
    const quote = start - 1;
    if (quote < copied || text.charCodeAt(quote) !== 0x22) continue;
    sticky.lastIndex = quote;
    const match = sticky.exec(text);
    const [whole, key = "", colon = "", raw = ""] = match ?? [];
    if (!match || whole === undefined || r.fields.kind(key) === "plain") continue;
    let value: string;
    try {
      value = JSON.parse(`"${raw}"`) as string;
    } catch {
      continue;
    }
    const redacted = fieldValue(key, value, r);
    if (redacted === value) continue;
    out += `${text.slice(copied, quote)}"${key}"${colon}${JSON.stringify(redacted)}`;
    copied = quote + whole.length;
  }
  return r.secrets.scrub(copied === 0 ? text : out + text.slice(copied));
}
