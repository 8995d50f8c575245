/**
 * A small, fast YAML emitter for cassette documents (plain data: maps, lists, strings, numbers, booleans,
 * null). It writes block style only, and a string either plain (when it cannot be read back as anything
 * else), as a literal block (readable multi-line text), or double-quoted with JSON escapes (which YAML
 * reads identically). The `yaml` package reads it back; `test/proxy/emit.test.ts` checks the round trip.
 * Written for speed: the recorder serialises every exchange, and a generic YAML library costs ~1 ms per
 * 8 KB document.
 */

import { RawText } from "./raw-text.js";

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

/** Where the bytes of a `RawText` go in the emitted text (a NUL never appears in emitted YAML). */
const RAW_MARK = "\u0000raw\u0000";

/** Indentation strings, computed once. */
const PADS: readonly string[] = Array.from({ length: 41 }, (_, i) => " ".repeat(i));

function pad(indent: number): string {
  return PADS[indent] ?? " ".repeat(indent);
}

/** A string as a one-line YAML scalar. */
export function yamlString(text: string): string {
  if (PLAIN.test(text) && (text.length > 5 || !RESERVED.test(text))) return text;
  return JSON.stringify(text).replace(NON_PRINTABLE, escapeChar);
}

function scalar(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return yamlString(value);
    case "number":
      if (Number.isFinite(value)) return Object.is(value, -0) ? "-0.0" : String(value);
      return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    default:
      return undefined;
  }
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

/** Whether a map has an entry to write (undefined values are skipped, as JSON does). */
function hasEntries(map: Record<string, unknown>): boolean {
  for (const key in map) if (Object.hasOwn(map, key) && map[key] !== undefined) return true;
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** How many distinct keys an emitter remembers the YAML form of. */
const KEY_CACHE_LIMIT = 5000;

/**
 * Writes cassette documents. One per writer: it remembers how each key is written (a recorder meets the
 * same few hundred keys again and again).
 */
export class YamlEmitter {
  private out = "";
  private raw: RawText[] = [];
  private readonly keys = new Map<string, string>();

  /**
   * One cassette document: `---`, the map in block style, and the closing `...` that marks it complete
   * (a document without it was cut by a crash and is skipped on load).
   *
   * @example new YamlEmitter().document({ id: 1, request: { method: "GET" } }) // "---\nid: 1\nrequest:\n  method: GET\n...\n"
   */
  document(value: Record<string, unknown>): string {
    return this.pieces(value) as string;
  }

  /**
   * A document as text, or, when it holds `RawText` values, as the pieces to write one after the other
   * (text around the raw bytes).
   */
  pieces(value: Record<string, unknown>): string | (string | Buffer)[] {
    this.out = "---\n";
    this.raw = [];
    this.map(value, 0, undefined);
    const text = `${this.out}...\n`;
    this.out = "";
    if (this.raw.length === 0) return text;
    const parts = text.split(RAW_MARK);
    const pieces: (string | Buffer)[] = [parts[0] ?? ""];
    for (const [i, raw] of this.raw.entries()) pieces.push(raw.bytes, parts[i + 1] ?? "");
    this.raw = [];
    return pieces;
  }

  private key(key: string): string {
    let text = this.keys.get(key);
    if (text === undefined) {
      text = `${yamlString(key)}:`;
      if (this.keys.size < KEY_CACHE_LIMIT) this.keys.set(key, text);
    }
    return text;
  }

  /** Writes what follows `key:` or `-` (the `lead`), then the value's own lines at `indent`. */
  private value(value: unknown, lead: string, indent: number): void {
    if (value instanceof RawText) {
      this.out += `${lead} ${value.trailingNewline ? "|" : "|-"}\n${pad(indent)}${RAW_MARK}\n`;
      this.raw.push(value);
      return;
    }
    if (typeof value === "string") {
      const block = value.length > 0 ? literalBlock(value) : undefined;
      if (!block) {
        this.out += `${lead} ${yamlString(value)}\n`;
        return;
      }
      this.out += `${lead} ${block.header}\n`;
      const spaces = pad(indent);
      for (const line of block.lines) this.out += line === "" ? "\n" : `${spaces}${line}\n`;
      return;
    }
    if (value instanceof Date) {
      this.out += `${lead} ${yamlString(value.toISOString())}\n`;
      return;
    }
    const text = scalar(value);
    if (text !== undefined) {
      this.out += `${lead} ${text}\n`;
      return;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.out += `${lead} []\n`;
        return;
      }
      this.out += `${lead}\n`;
      this.sequence(value, indent);
      return;
    }
    if (isPlainObject(value)) {
      if (!hasEntries(value)) {
        this.out += `${lead} {}\n`;
        return;
      }
      this.out += `${lead}\n`;
      this.map(value, indent, undefined);
      return;
    }
    this.out += `${lead} null\n`;
  }

  private sequence(items: readonly unknown[], indent: number): void {
    const spaces = pad(indent);
    for (const item of items) {
      if (isPlainObject(item) && hasEntries(item)) this.map(item, indent + 2, `${spaces}- `);
      else this.value(item === undefined ? null : item, `${spaces}-`, indent + 2);
    }
  }

  /** Writes a map's entries at `indent`; the first line starts with `firstPrefix` when given (`- `). */
  private map(map: Record<string, unknown>, indent: number, firstPrefix: string | undefined): void {
    const spaces = pad(indent);
    let first = firstPrefix !== undefined;
    for (const key in map) {
      if (!Object.hasOwn(map, key)) continue;
      const value = map[key];
      if (value === undefined) continue;
      this.value(value, `${first ? firstPrefix : spaces}${this.key(key)}`, indent + 2);
      first = false;
    }
  }
}

/**
 * One cassette document (see {@link YamlEmitter.document}); for a single document. A writer keeps one
 * `YamlEmitter` instead.
 *
 * @example emitDocument({ id: 1, request: { method: "GET" } }) // "---\nid: 1\nrequest:\n  method: GET\n...\n"
 */
export function emitDocument(value: Record<string, unknown>): string {
  return new YamlEmitter().document(value);
}
