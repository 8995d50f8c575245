/**
 * How the cassette emitter writes strings and numbers: shared by the document emitter (`emit.ts`) and the
 * JSON-text transcoder (`json-yaml.ts`), which must write exactly the same YAML for the same value; the
 * byte functions below are the same rules for strings given as UTF-8 bytes, for the transcoder.
 */

/**
 * A value already written as the YAML the emitter would write for it, with its lines at `indent`: the
 * bytes that follow `key:` (a space and a scalar, or a newline and the block lines), newline-ended. The
 * emitter writes its parts as they are, never decoding them: this is how the recorder's fast paths
 * (`json-yaml.ts`, `rawText` of `body-encoder.ts`) put bodies into a cassette without building their values.
 */
export class YamlBlock {
  /** The YAML, in the pieces it was made of (written one after the other, never joined). */
  readonly parts: readonly Buffer[];

  constructor(
    parts: Buffer | readonly Buffer[],
    readonly indent: number,
  ) {
    this.parts = Buffer.isBuffer(parts) ? [parts] : parts;
  }

  /** The YAML as one buffer (a copy when it has several parts). */
  get bytes(): Buffer {
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
  }

  /** The same value with its lines at another indent (every line is shifted alike). */
  shifted(indent: number): YamlBlock {
    if (indent === this.indent) return this;
    const text = this.bytes.toString("utf8");
    const moved = text.replaceAll(`\n${" ".repeat(this.indent)}`, `\n${" ".repeat(indent)}`);
    return new YamlBlock(Buffer.from(moved, "utf8"), indent);
  }
}

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

/** Strings YAML 1.1 or 1.2 would read as null or a boolean. */
const RESERVED =
  /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;

/**
 * A string safe to write unquoted: starts with a letter, `_`, `/` or `<letter` (placeholders), then
 * letters, digits and `_.-/<>@+=,;()~`, a `:` followed by a word character, `/` or `<`, or a single
 * space followed by a character other than space and `#`.
 */
const PLAIN = /^(?:[A-Za-z_/]|<(?=[A-Za-z]))(?:[\w.\-/<>@+=,;()~]|:(?=[\w/<])| (?=[^ #]))*$/;

/** Characters YAML wants escaped that JSON.stringify leaves as they are. */
const NON_PRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/** Characters that keep a multi-line string out of a literal block. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must be quoted
const NOT_LITERAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[ \t]\n|[ \t]$/;

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Indentation strings, computed once. */
const PADS: readonly string[] = Array.from({ length: 41 }, (_, i) => " ".repeat(i));

/** `indent` spaces. */
export function pad(indent: number): string {
  return PADS[indent] ?? " ".repeat(indent);
}

/**
 * Whether a string is written plain (unquoted), and so whether a plain scalar read back is a string the
 * emitter wrote: it matches `PLAIN` and is not one of the `RESERVED` words.
 */
export function isPlainString(text: string): boolean {
  return PLAIN.test(text) && (text.length > SHORT || !RESERVED.test(text));
}

/** A string as a one-line YAML scalar. */
export function yamlString(text: string): string {
  if (isPlainString(text)) return text;
  return JSON.stringify(text).replace(NON_PRINTABLE, escapeChar);
}

/** Single-line strings at least this long are written as literal blocks too: no escaping to do or read. */
const LONG_LINE = 1024;

/**
 * Lines of a literal block (a multi-line string, or a long single line), or undefined when the string
 * must be quoted instead.
 */
function literalBlock(text: string): { header: string; lines: string[] } | undefined {
  if (!text.includes("\n") && (text.length < LONG_LINE || PLAIN.test(text))) return undefined;
  if (text.startsWith("\n") || text.startsWith(" ") || text.startsWith("\t")) return undefined;
  if (NOT_LITERAL.test(text)) return undefined;
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
  if (end === 0) return undefined;
  const trailing = text.length - end;
  const header = trailing === 0 ? "|-" : trailing === 1 ? "|" : "|+";
  const body = trailing === 0 ? text : text.slice(0, end);
  const lines = body.includes("\n") ? body.split("\n") : [body];
  for (let i = 1; i < trailing; i++) lines.push("");
  return { header, lines };
}

/**
 * What follows `lead` (`key:` or `-`) for a string value: ` scalar` on the same line, or a literal block
 * whose lines sit at `indent`; newline-terminated.
 */
export function stringEntry(lead: string, value: string, indent: number): string {
  const block = value.length > 0 ? literalBlock(value) : undefined;
  if (!block) return `${lead} ${yamlString(value)}\n`;
  let out = `${lead} ${block.header}\n`;
  const spaces = pad(indent);
  for (const line of block.lines) out += line === "" ? "\n" : `${spaces}${line}\n`;
  return out;
}

/** A number as the emitter writes it (JSON's own form for finite numbers). */
export function yamlNumber(value: number): string {
  if (Number.isFinite(value)) return Object.is(value, -0) ? "-0.0" : String(value);
  return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
}
