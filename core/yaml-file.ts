import {
  type Document,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLParseError,
} from "yaml";
import { AssopayError, type ErrorCode } from "./errors.js";
import { readInputText } from "./input-file.js";

/** A YAML file parsed into plain data, able to say on which line a value sits. */
export interface YamlFile {
  file: string;
  data: unknown;
  /** The 1-based line of the value at a JSON pointer-ish path (`["routes", 3, "path"]`), or of its nearest parent. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/**
 * The deepest nesting of maps and lists any YAML input of the tool may have: far past any contract,
 * data file, OpenAPI document or recorded body (the provider's nest a dozen levels), and well before
 * a recursive reader of the data runs out of stack.
 */
export const MAX_YAML_DEPTH = 256;

/** How many alias expansions one document may make, unless told fewer (an alias bomb makes millions). */
export const MAX_YAML_ALIASES = 1000;

/** How one reader of YAML wants its text read. */
export interface YamlReading {
  /** The error code of its mistakes (`bad-input`, `bad-contract`, `bad-cassette`). */
  code: ErrorCode;
  /** What the text is, for messages: `OpenAPI document`, `cassette document`. */
  what: string;
  /** The line of the file the text starts at (a document inside a cassette), default 1. */
  firstLine?: number;
  /** At most this many alias expansions, default {@link MAX_YAML_ALIASES}. */
  maxAliases?: number;
  /** Whether `<<` merge keys are read (default true). */
  merge?: boolean;
  /** The hint of a syntax error, default "fix the YAML syntax at that line". */
  hint?: string;
}

/**
 * Reads and parses a YAML file. A missing file, one that is not a regular file, or a syntax error is an
 * `AssopayError` with the file and line, exit code 2.
 */
export function readYamlFile(file: string, code: ErrorCode, what: string): YamlFile {
  return parseYamlText(readInputText(file, code, what), file, { code, what });
}

/**
 * What each kind of YAML syntax error expected, in words: a message never quotes the text (the file may
 * be anything, `/etc/shadow` given by mistake), only the position and what was expected there.
 */
const SYNTAX: Record<YAMLParseError["code"], string> = {
  ALIAS_PROPS: "an alias (*name) cannot have an anchor or a tag",
  BAD_ALIAS: "an alias (*name) names no anchor (&name) set before it",
  BAD_DIRECTIVE: "a directive (%…) that YAML does not know",
  BAD_DQ_ESCAPE: "an escape sequence a double-quoted value cannot hold",
  BAD_INDENT: "indentation that does not match the lines around it",
  BAD_PROP_ORDER: "an anchor or a tag in the wrong place: they come before the value",
  BAD_SCALAR_START: "a plain value starting with a character it cannot start with: quote the value",
  BLOCK_AS_IMPLICIT_KEY: "a block used as a key",
  BLOCK_IN_FLOW: "a block collection inside a flow collection ([…] or {…})",
  DUPLICATE_KEY: "a key repeated in one map: each key appears once",
  IMPOSSIBLE: "text that cannot be read as YAML",
  KEY_OVER_1024_CHARS: "a key longer than 1024 characters",
  MISSING_CHAR: "a missing character: a closing quote or bracket, a comma, or a space after ':'",
  MULTILINE_IMPLICIT_KEY: "a key spread over several lines: a key: value pair on one line was expected",
  MULTIPLE_ANCHORS: "two anchors on one value",
  MULTIPLE_DOCS: "a second document: one document was expected",
  MULTIPLE_TAGS: "two tags on one value",
  NON_STRING_KEY: "a key that is not a string",
  RESOURCE_EXHAUSTION: `nesting too deep to be read (at most ${MAX_YAML_DEPTH} levels)`,
  TAB_AS_INDENT: "a tab used for indentation: YAML indents with spaces",
  TAG_RESOLVE_FAILED: "a tag (!name) that YAML's core schema does not know",
  UNEXPECTED_TOKEN:
    "something that does not belong there: a key: value pair, a list item or a value was expected",
  BAD_COLLECTION_TYPE: "a tag that does not fit the collection it is on",
};

/** The first node nested deeper than {@link MAX_YAML_DEPTH} (walked without recursion), and the first alias. */
function survey(doc: Document.Parsed): { tooDeep?: Node; alias?: Node } {
  const found: { tooDeep?: Node; alias?: Node } = {};
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (isAlias(node) && (node.range?.[0] ?? 0) < (found.alias?.range?.[0] ?? Number.POSITIVE_INFINITY)) {
      found.alias = node;
    }
    if (!isCollection(node)) continue;
    if (depth >= MAX_YAML_DEPTH) {
      found.tooDeep = node;
      return found;
    }
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push({ node: item.value, depth: depth + 1 }, { node: item.key, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return found;
}

/** The offset of the first alias that refers to a node containing it (`&a [*a]`): a circular structure. */
function selfReference(doc: Document.Parsed, text: string): number | undefined {
  if (!text.includes("*")) return undefined;
  const stack: { node: unknown; above: readonly unknown[] }[] = [{ node: doc.contents, above: [] }];
  while (stack.length > 0) {
    const { node, above } = stack.pop() as { node: unknown; above: readonly unknown[] };
    if (isAlias(node)) {
      if (above.includes(node.resolve(doc))) return node.range?.[0] ?? 0;
      continue;
    }
    if (!isCollection(node)) continue;
    const path = [...above, node];
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push({ node: item.key, above: path }, { node: item.value, above: path });
      else stack.push({ node: item, above: path });
    }
  }
  return undefined;
}

/**
 * Parses YAML text into plain data: the one place every YAML input of the tool is parsed (contracts,
 * timelines, data files, OpenAPI documents, cassette documents the fast reader leaves). Each mistake is
 * an `AssopayError` (exit 2) with the file and the line: a syntax error, nesting deeper than
 * {@link MAX_YAML_DEPTH}, an alias that refers to the node holding it, and aliases that expand to more
 * than the bound (an alias bomb). A message names a position and what was expected, never the text.
 */
export function parseYamlText(text: string, file: string, reading: YamlReading): YamlFile {
  const { code, what } = reading;
  const shift = (reading.firstLine ?? 1) - 1;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: reading.merge ?? true, uniqueKeys: true });
  const at = (offset: number | undefined) =>
    offset === undefined ? shift + 1 : lineCounter.linePos(offset).line + shift;
  const fail = (message: string, offset: number | undefined, hint: string): never => {
    throw new AssopayError(code, message, { location: { file, line: at(offset) }, hint });
  };
  const first = doc.errors[0];
  if (first) {
    const position = first.linePos?.[0];
    throw new AssopayError(code, `the ${what} is not valid YAML: ${SYNTAX[first.code]}`, {
      location: { file, line: (position?.line ?? 1) + shift, column: position?.col },
      hint: reading.hint ?? "fix the YAML syntax at that line",
    });
  }
  const { tooDeep, alias } = survey(doc);
  if (tooDeep) {
    fail(
      `the ${what} nests deeper than ${MAX_YAML_DEPTH} levels`,
      tooDeep.range?.[0],
      "no file assopay reads nests this deep: check that this is the right file",
    );
  }
  const aliasHint = "write the value itself in place of the alias (&name, *name)";
  if (alias) {
    const loop = selfReference(doc, text);
    if (loop !== undefined)
      fail("a YAML alias refers to the node that contains it (a self-reference)", loop, aliasHint);
  }
  const maxAliases = reading.maxAliases ?? MAX_YAML_ALIASES;
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: maxAliases });
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0] ?? "";
    if (!/alias/i.test(reason))
      fail(`the ${what} cannot be read as data`, undefined, reading.hint ?? "fix the YAML at that line");
    fail(
      `the YAML aliases expand to too much (more than ${maxAliases} nodes each)`,
      alias?.range?.[0],
      aliasHint,
    );
  }
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    let node: unknown = doc.contents;
    let best: Node | undefined = doc.contents ?? undefined;
    for (const key of path) {
      if (isMap(node)) node = node.get(String(key), true);
      else if (isSeq(node)) node = node.get(Number(key), true);
      else break;
      if (node && (isMap(node) || isSeq(node) || isScalar(node))) best = node;
      else break;
    }
    return best?.range ? at(best.range[0]) : undefined;
  };
  return { file, data, lineOf };
}

/**
 * Refuses a file that is not of the format the reader expects before it is checked value by value: its
 * data is not a map, or none of its top-level keys is one of `keys`. The message names the expected keys
 * and the line, never what the file holds (a file given by mistake may be anything: `/etc/shadow`).
 * Empty files and maps pass: the reader's own checks say what is missing.
 *
 * @example
 * expectOwnFormat(yaml, ["format", "entries"], { code: "bad-contract", what: "timeline" });
 */
export function expectOwnFormat(yaml: YamlFile, keys: readonly string[], reading: YamlReading): void {
  const { data } = yaml;
  if (data === null || data === undefined || keys.length === 0) return;
  if (typeof data === "object" && !Array.isArray(data)) {
    const own = Object.keys(data);
    if (own.length === 0 || own.some((key) => keys.includes(key))) return;
  }
  throw new AssopayError(
    reading.code,
    `this file is not a ${reading.what}: a YAML map with some of the keys ${keys.join(", ")} was expected`,
    {
      location: { file: yaml.file, line: 1 },
      hint: reading.hint ?? `check the path given for the ${reading.what}`,
    },
  );
}
