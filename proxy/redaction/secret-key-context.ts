/**
 * Where a secret name the body scan found (`scan.ts`) stands, read from the bytes around it: whether the
 * general path would redact what it names (an XML element, a pair, a JSON key, a key held in a string or
 * written with escapes). The scan's pass finds the names; this tells a name in prose from a key.
 */
import { secretName } from "../../core/secrets/pairs.js";
import { asFieldName, keyName, namesItsValue } from "./named-pairs.js";
import { isSensitiveField, type Redactor } from "./redactor.js";

/**
 * State the pass keeps beside its loop: the last quote known (`lastQuote`, before `quotesTo`, up to
 * which quotes were looked for), and where the next one is.
 */
export interface Cursor {
  lastQuote: number;
  quotesTo: number;
  nextQuote: number;
}

/** Where the last quote before `i` is (-1: none). Asked at growing `i`: each byte is read once at most. */
function lastQuoteBefore(b: Buffer, i: number, at: Cursor): number {
  for (let k = i - 1; k >= at.quotesTo; k--) {
    if (b[k] === 0x22) {
      at.lastQuote = k;
      break;
    }
  }
  if (i > at.quotesTo) at.quotesTo = i;
  return at.lastQuote;
}

/**
 * Whether the word around `i` (a listed name was found ending there) is one the general path redacts:
 * placed as an XML element (`<password>`, `<ns:password>`), a pair (`password=`, `password: x`,
 * `"password": x`, `'password' => x`, `password%3D` in an encoded URL, `/password/x` in a path), a
 * command line's flag
 * (`--password x`), a key of JSON held in a string (`\"password\":`), or, with `keys`, a JSON key.
 * Also the word's end.
 */
export function secretWord(
  b: Buffer,
  i: number,
  r: Redactor,
  keys: boolean,
  at: Cursor,
): { hit: boolean; end: number } {
  let start = i;
  while (start > 0 && nameChar(b[start - 1])) start--;
  // Up to two words before it, a blank apart, as the pairs' grammar reads a name (`Mot de passe: x`).
  let first = start;
  for (let words = 0; words < 2 && b[first - 1] === 0x20 && nameChar(b[first - 2]); words++) {
    first--;
    while (first > 0 && nameChar(b[first - 1])) first--;
  }
  let end = i + 1;
  while (end < b.length && nameChar(b[end])) end++;
  // A command line's flag: the dashes before the name, a blank (or a string's quote) before them and a
  // blank after it.
  let named = start;
  while (b[named] === 0x2d) named++;
  const opens = start === 0 || isBlank(b[start - 1]) || b[start - 1] === 0x22 || b[start - 1] === 0x27;
  const flag = named > start && opens && isBlank(b[end]);
  // The name's closing quote (`"password": x`, `'password' => x`, `\"password\": x`), then blanks.
  let k = end;
  if (b[k] === 0x5c) k++;
  if (b[k] === 0x22 || b[k] === 0x27 || b[k] === 0x60) k++;
  else k = end;
  while (isBlank(b[k])) k++;
  const before = b[start - 1];
  const placed =
    flag ||
    before === 0x3c || // <
    before === 0x3a || // : (a namespace prefix)
    b[k] === 0x3d || // =, also after blanks (`password = x` in a text)
    b[k] === 0x3a || // `password: x` in a text
    (b[end] === 0x25 && b[end + 1] === 0x33 && ((b[end + 2] ?? 0) | 0x20) === 0x64) || // %3D
    (before === 0x22 && b[start - 2] === 0x5c) || // \"
    (before === 0x2f && b[end] === 0x2f); // a path's segment: `/secret/…`
  const sensitive = { isSecret: (name: string) => isSensitiveField(name, r), mayName: () => true };
  if (placed && secretName(b.toString("latin1", first === start ? named : first, end), sensitive, "field"))
    return { hit: true, end };
  if (!keys) return { hit: false, end };
  // A JSON key: the string around the word, followed by blanks and `:`.
  const open = lastQuoteBefore(b, i, at);
  if (at.nextQuote < i) {
    const next = b.indexOf(0x22, i);
    at.nextQuote = next < 0 ? b.length : next;
  }
  const close = at.nextQuote;
  if (open < 0 || close >= b.length) return { hit: false, end };
  let after = close + 1;
  while (b[after] === 0x20 || b[after] === 0x09) after++;
  const name = keyName(b.toString("latin1", open + 1, close));
  if (b[after] === 0x3a) return { hit: isSensitiveField(name, r), end };
  // The value of a pair object's name (`{"name": "Access token", "value": …}`: named-pairs.ts).
  return { hit: namesAPair(b, open) && isSensitiveField(asFieldName(name), r), end };
}

/** Whether the string opening at `open` is the value of a `"name"` or `"key"` member (any case). */
function namesAPair(b: Buffer, open: number): boolean {
  let k = open - 1;
  while (isBlank(b[k])) k--;
  if (b[k] !== 0x3a) return false;
  k--;
  while (isBlank(b[k])) k--;
  if (b[k] !== 0x22) return false;
  const opened = b.lastIndexOf(0x22, k - 1);
  return opened >= 0 && namesItsValue(b.toString("latin1", opened + 1, k));
}

/**
 * Whether the string holding the backslash at `i` is a key that names a secret once its escapes are
 * decoded (`"\u0061ccess_token":`); also where that string ends (its other backslashes need no look).
 */
export function escapedSecretKey(
  b: Buffer,
  i: number,
  r: Redactor,
  at: Cursor,
): { hit: boolean; end: number } {
  let k = i;
  while (k < b.length) {
    const c = b[k];
    if (c === 0x5c) k += 2;
    else if (c === 0x22 || c === 0x0a) break;
    else k++;
  }
  if (b[k] !== 0x22) return { hit: false, end: k };
  let after = k + 1;
  while (isBlank(b[after])) after++;
  const open = lastQuoteBefore(b, i, at);
  if (b[after] !== 0x3a || open < 0) return { hit: false, end: k + 1 };
  return { hit: isSensitiveField(keyName(b.toString("latin1", open + 1, k)), r), end: k + 1 };
}

/** Blanks as `\s` reads a byte (the old scans read bodies as latin1: 0xA0 is one). */
export function isBlank(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0);
}

/** A character of a name (`client_secret`, `ns:password` without its prefix). */
export function nameChar(c: number | undefined): boolean {
  return (
    c !== undefined &&
    ((c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x5f ||
      c === 0x2d ||
      c === 0x2e)
  );
}
