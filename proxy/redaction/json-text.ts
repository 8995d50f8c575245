import { isKeyChar } from "./fields.js";
import type { Redactor } from "./redactor.js";
import { fieldValue } from "./redactor.js";

/** `"key": "value"` at a given position (sticky): both JSON strings. */
const KEY_VALUE = /"([\w-]*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/y;

/**
 * Redacts JSON kept as text (too large to store as a map, or not restorable byte for byte): the string
 * values of secret fields become placeholders (and personal fields fakes) in place, every other byte
 * stays, then known secrets are scrubbed. It works on the text without parsing it: it looks only where
 * the key filter of the field lists matches, at a key (in valid JSON, a string followed by `:` is always
 * a key).
 */
export function redactJsonText(text: string, r: Redactor): string {
  const words = r.fields.keyFilter(r.pii);
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
