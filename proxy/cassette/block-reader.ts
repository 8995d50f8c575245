/**
 * A reader for the block-style YAML the cassette emitter writes (`emit.ts`): maps, lists, plain and
 * double-quoted scalars, literal blocks, `[]` and `{}`. It reads a document about ten times faster than
 * a general YAML parser, and gives up (undefined) on anything else (comments, flow collections, anchors,
 * tags, single quotes, other indentation styles…), which the caller then hands to the `yaml` package.
 * Whatever it does read, it reads as the `yaml` package would (`test/proxy/block-reader.test.ts`).
 */

import { MAX_YAML_DEPTH } from "../../core/yaml-file.js";
import { isPlainString } from "./yaml-scalar.js";

/** Numbers as JSON writes them (YAML's core schema reads them as the same number). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/** Thrown to give up on a document: the caller parses it with the `yaml` package instead. */
class NotOurs extends Error {}
const NOT_OURS = new NotOurs();

interface Cursor {
  readonly lines: readonly string[];
  i: number;
  /** How many maps and lists hold the one being read. */
  depth: number;
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 0x20) n++;
  if (line.charCodeAt(n) === 0x09) throw NOT_OURS;
  return n;
}

function isBlank(line: string): boolean {
  for (let k = 0; k < line.length; k++) if (line.charCodeAt(k) !== 0x20) return false;
  return true;
}

/** Moves past blank lines; the indent of the next line, or -1 at the end. */
function nextIndent(c: Cursor): number {
  while (c.i < c.lines.length && isBlank(c.lines[c.i] as string)) c.i++;
  if (c.i >= c.lines.length) return -1;
  const line = c.lines[c.i] as string;
  const indent = indentOf(line);
  if (line.charCodeAt(indent) === 0x23) throw NOT_OURS; // a comment
  return indent;
}

/** A plain scalar the emitter would have written plain: a string. Anything else plain is not ours. */
function plainString(text: string): string {
  if (!isPlainString(text)) throw NOT_OURS;
  return text;
}

/** The end of the double-quoted scalar that starts `text` (the index of its closing quote). */
function quotedEnd(text: string): number {
  for (let k = 1; k < text.length; k++) {
    const ch = text.charCodeAt(k);
    if (ch === 0x5c) k++;
    else if (ch === 0x22) return k;
  }
  throw NOT_OURS;
}

function quoted(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw NOT_OURS;
  }
  if (typeof value !== "string") throw NOT_OURS;
  return value;
}

function scalar(token: string): unknown {
  if (token === "[]") return [];
  if (token === "{}") return {};
  if (token.charCodeAt(0) === 0x22) return quoted(token);
  if (token === "true") return true;
  if (token === "false") return false;
  if (token === "null") return null;
  if (NUMBER.test(token)) return Number(token);
  return plainString(token);
}

/** A map entry's line (after its indent or `- `): its key, and what follows the colon. */
function entry(content: string): { key: string; rest: string } | undefined {
  if (content.charCodeAt(0) === 0x22) {
    const end = quotedEnd(content);
    if (content.charCodeAt(end + 1) !== 0x3a) return undefined;
    const rest = content.slice(end + 2);
    if (rest !== "" && rest.charCodeAt(0) !== 0x20) throw NOT_OURS;
    return { key: quoted(content.slice(0, end + 1)), rest };
  }
  const colon = content.indexOf(": ");
  if (colon >= 0) return { key: plainString(content.slice(0, colon)), rest: content.slice(colon + 1) };
  if (content.endsWith(":")) return { key: plainString(content.slice(0, -1)), rest: "" };
  return undefined;
}

/** The literal block after a `|`, `|-` or `|+` whose parent sits at `parent`. */
function literal(c: Cursor, parent: number, header: string): string {
  const lines: string[] = [];
  let blockIndent = -1;
  for (; c.i < c.lines.length; c.i++) {
    const line = c.lines[c.i] as string;
    if (line === "") {
      if (blockIndent < 0) throw NOT_OURS;
      lines.push("");
      continue;
    }
    const indent = indentOf(line);
    if (indent <= parent) break;
    if (isBlank(line)) throw NOT_OURS;
    if (blockIndent < 0) blockIndent = indent;
    else if (indent < blockIndent) throw NOT_OURS;
    lines.push(line.slice(blockIndent));
  }
  let trailing = 0;
  while (lines.length > 0 && lines[lines.length - 1] === "") {
    lines.pop();
    trailing++;
  }
  if (lines.length === 0) throw NOT_OURS;
  const body = lines.join("\n");
  if (header === "|-") return body;
  if (header === "|") return `${body}\n`;
  return `${body}\n${"\n".repeat(trailing)}`;
}

/** The value after `key:` or `-` (`rest` is what follows on the line), its parent sitting at `parent`. */
function value(c: Cursor, rest: string, parent: number): unknown {
  if (rest === "") {
    const indent = nextIndent(c);
    if (indent <= parent) throw NOT_OURS; // an empty value: null, which the emitter never writes
    return block(c, indent);
  }
  const token = rest.slice(1);
  if (token === "|" || token === "|-" || token === "|+") return literal(c, parent, token);
  return scalar(token);
}

function setKey(map: Record<string, unknown>, key: string, item: unknown): void {
  if (key === "__proto__" || Object.hasOwn(map, key)) throw NOT_OURS;
  map[key] = item;
}

/** A map whose keys sit at `indent`; `first` is its first entry when it began on a list item's line. */
function map(c: Cursor, indent: number, first?: { key: string; rest: string }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (first) setKey(out, first.key, value(c, first.rest, indent));
  for (;;) {
    const at = nextIndent(c);
    if (at < indent) return out;
    if (at > indent) throw NOT_OURS;
    const line = c.lines[c.i] as string;
    const found = entry(line.slice(indent));
    if (!found) throw NOT_OURS;
    c.i++;
    setKey(out, found.key, value(c, found.rest, indent));
  }
}

/** A list whose dashes sit at `indent`. */
function list(c: Cursor, indent: number): unknown[] {
  const out: unknown[] = [];
  for (;;) {
    const at = nextIndent(c);
    if (at < indent) return out;
    const line = c.lines[c.i] as string;
    if (at > indent || line.charCodeAt(indent) !== 0x2d) throw NOT_OURS;
    c.i++;
    if (line.length === indent + 1) {
      out.push(value(c, "", indent));
      continue;
    }
    if (line.charCodeAt(indent + 1) !== 0x20) throw NOT_OURS;
    const content = line.slice(indent + 2);
    const found = content.charCodeAt(0) === 0x7c ? undefined : entry(content);
    out.push(found ? map(c, indent + 2, found) : value(c, line.slice(indent + 1), indent));
  }
}

/** The map or list whose lines start at `indent`. */
function block(c: Cursor, indent: number): unknown {
  // Deeper than any YAML input may nest: the general reader says where, with its limits (core/yaml-file.ts).
  if (++c.depth > MAX_YAML_DEPTH) throw NOT_OURS;
  const line = c.lines[c.i] as string;
  const dash = line.charCodeAt(indent) === 0x2d;
  const read =
    dash && (line.length === indent + 1 || line.charCodeAt(indent + 1) === 0x20)
      ? list(c, indent)
      : map(c, indent);
  c.depth--;
  return read;
}

/**
 * The data of one cassette document (its lines, without `---` and `...`), or undefined when it holds
 * anything the emitter does not write: then the `yaml` package must read it.
 *
 * @example readBlockDocument(["id: 1", "request:", "  method: GET"]) // { id: 1, request: { method: "GET" } }
 */
export function readBlockDocument(lines: readonly string[]): unknown {
  const c: Cursor = { lines, i: 0, depth: 0 };
  try {
    if (nextIndent(c) !== 0) return undefined;
    const data = block(c, 0);
    return nextIndent(c) === -1 ? data : undefined;
  } catch (error) {
    if (error instanceof NotOurs) return undefined;
    throw error;
  }
}
