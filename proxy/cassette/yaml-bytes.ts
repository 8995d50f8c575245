/**
 * The rules of `yaml-scalar.ts` for strings given as UTF-8 bytes, for the JSON transcoder
 * (`json-yaml.ts`): whether the emitter writes them plain, and whether quoting them needs escapes.
 */
import { LONG_LINE, RESERVED } from "./yaml-scalar.js";

const SPACE = 0x20;
const COLON = 0x3a;
/** Plain strings this short may be one of the words YAML reads as null or a boolean (`RESERVED`). */
const SHORT = 5;

/** Character classes of ASCII bytes for plain scalars (see `yaml-scalar.ts`). */
const WORD = 1; // [A-Za-z0-9_]
const FIRST = 2; // [A-Za-z_/]
const REST = 4; // [\w.\-/<>@+=,;()~]
const AFTER_COLON = 8; // [\w/<]
const LETTER = 16; // [A-Za-z]
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let bits = 0;
  if (/\w/.test(ch)) bits |= WORD | REST | AFTER_COLON;
  if (/[A-Za-z_/]/.test(ch)) bits |= FIRST;
  if (/[.\-/<>@+=,;()~]/.test(ch)) bits |= REST;
  if (ch === "/" || ch === "<") bits |= AFTER_COLON;
  if (/[A-Za-z]/.test(ch)) bits |= LETTER;
  CLASSES[c] = bits;
}

/** Whether the ASCII bytes `[start, end)` match the `PLAIN` pattern of `yaml-scalar.ts`. */
function plainPattern(s: Buffer, start: number, end: number): boolean {
  if (start === end) return false;
  const first = s[start] as number;
  if (first === 0x3c) {
    if (start + 1 >= end || !((CLASSES[s[start + 1] as number] ?? 0) & LETTER)) return false;
  } else if (!((CLASSES[first] ?? 0) & FIRST)) return false;
  for (let k = start + 1; k < end; k++) {
    const c = s[k] as number;
    if (c >= 0x80) return false;
    if ((CLASSES[c] as number) & REST) continue;
    const next = k + 1 < end ? (s[k + 1] as number) : -1;
    if (c === COLON && next >= 0 && next < 0x80 && (CLASSES[next] as number) & AFTER_COLON) continue;
    if (c === SPACE && next >= 0 && next !== SPACE && next !== 0x23) continue;
    return false;
  }
  return true;
}

/** The ASCII bytes `[start, end)` of a short run as a string (no view object, no call into the runtime). */
function shortText(s: Buffer, start: number, end: number): string {
  let text = "";
  for (let k = start; k < end; k++) text += String.fromCharCode(s[k] as number);
  return text;
}

/** Whether `a` holds exactly the bytes `s[start, end)`. */
export function sameBytes(a: Buffer, s: Buffer, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== s[start + k]) return false;
  return true;
}

/**
 * Whether the bytes `[start, end)` of a JSON string hold a character the emitter would escape when
 * quoting (DEL, C1 controls, U+2028/9, BOM, U+FFFE/F), which the fast path leaves to the general one.
 */
export function needsEscape(s: Buffer, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = s[k] as number;
    if (c < 0x7f) continue;
    if (c === 0x7f) return true;
    const d = s[k + 1];
    if (c === 0xc2 && d !== undefined && d >= 0x80 && d <= 0x9f) return true;
    if (c === 0xe2 && d === 0x80 && (s[k + 2] === 0xa8 || s[k + 2] === 0xa9)) return true;
    if (c === 0xef && d === 0xbb && s[k + 2] === 0xbf) return true;
    if (c === 0xef && d === 0xbf && (s[k + 2] === 0xbe || s[k + 2] === 0xbf)) return true;
  }
  return false;
}

/** `isPlainString` of `yaml-scalar.ts` for the bytes `s[start, end)`: the emitter writes them unquoted. */
export function isPlainBytes(s: Buffer, start: number, end: number): boolean {
  if (!plainPattern(s, start, end)) return false;
  return end - start > SHORT || !RESERVED.test(shortText(s, start, end));
}

/**
 * Whether the bytes `[start, end)` of a JSON string that is neither plain nor in need of escapes (see
 * {@link isPlainBytes}, {@link needsEscape}) are written by the emitter as a one-line literal block
 * (`|-`): at least `LONG_LINE` characters as JavaScript counts them (UTF-16 units), and no space at
 * either end. Such a string holds no newline, tab or other control character: JSON escapes them.
 */
export function isLiteralLine(s: Buffer, start: number, end: number): boolean {
  if (end - start < LONG_LINE || s[start] === SPACE || s[end - 1] === SPACE) return false;
  let units = 0;
  for (let k = start; k < end; k++) {
    const c = s[k] as number;
    if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units >= LONG_LINE;
}
