/**
 * A small, fast YAML emitter for cassette documents (plain data: maps, lists, strings, numbers, booleans,
 * null). It writes block style only, and a string either plain (when it cannot be read back as anything
 * else), as a literal block (readable multi-line text), or double-quoted with JSON escapes (which YAML
 * reads identically). The `yaml` package reads it back; `test/proxy/emit.test.ts` checks the round trip.
 * Written for speed: the recorder serialises every exchange, and a generic YAML library costs ~1 ms per
 * 8 KB document.
 */

import { pad, stringEntry, YamlBlock, yamlNumber, yamlString } from "./yaml-scalar.js";

/** Where the bytes of a `YamlBlock` go in the emitted text (a NUL never appears in emitted YAML). */
const RAW_MARK = "\u0000raw\u0000";

/** null, a number, a boolean or a bigint as a YAML scalar (strings have `stringEntry`); else undefined. */
function scalar(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "number") return yamlNumber(value);
  return typeof value === "boolean" || typeof value === "bigint" ? String(value) : undefined;
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
  private raw: YamlBlock[] = [];
  private readonly keys = new Map<string, string>();

  /**
   * One cassette document: `---`, the map in block style, and the closing `...` that marks it complete
   * (a document without it was cut by a crash and is skipped on load).
   *
   * @example new YamlEmitter().document({ id: 1, request: { method: "GET" } }) // "---\nid: 1\nrequest:\n  method: GET\n...\n"
   */
  document(value: Record<string, unknown>): string {
    const written = this.pieces(value);
    if (typeof written === "string") return written;
    return written.map((piece) => (typeof piece === "string" ? piece : piece.toString("utf8"))).join("");
  }

  /**
   * A document as text, or, when it holds `YamlBlock` values, as the pieces to write one after the other
   * (text around the blocks' bytes).
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
    for (const [i, raw] of this.raw.entries()) pieces.push(...raw.parts, parts[i + 1] ?? "");
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
    if (typeof value === "string") {
      this.out += stringEntry(lead, value, indent);
      return;
    }
    if (value instanceof YamlBlock) {
      this.out += `${lead}${RAW_MARK}`;
      this.raw.push(value.shifted(indent));
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
      const empty = value.length === 0;
      this.out += empty ? `${lead} []\n` : `${lead}\n`;
      if (!empty) this.sequence(value, indent);
      return;
    }
    if (isPlainObject(value)) {
      const empty = !hasEntries(value);
      this.out += empty ? `${lead} {}\n` : `${lead}\n`;
      if (!empty) this.map(value, indent, undefined);
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
