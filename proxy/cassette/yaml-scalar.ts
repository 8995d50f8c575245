/**
 * How the cassette emitter writes strings and numbers: shared by the document emitter (`emit.ts`) and the
 * JSON-text transcoder (`json-yaml.ts`), which must write exactly the same YAML for the same value.
 */

/** Strings YAML 1.1 or 1.2 would read as null or a boolean. */
export const RESERVED =
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
  return PLAIN.test(text) && (text.length > 5 || !RESERVED.test(text));
}

/** A string as a one-line YAML scalar. */
export function yamlString(text: string): string {
  if (isPlainString(text)) return text;
  return JSON.stringify(text).replace(NON_PRINTABLE, escapeChar);
}

/** Single-line strings at least this long are written as literal blocks too: no escaping to do or read. */
export const LONG_LINE = 1024;

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
