import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { AssopayError } from "../../core/errors.js";
import { openInput } from "../../core/input-file.js";
import { parseYamlText } from "../../core/yaml-file.js";
import { readBlockDocument } from "./block-reader.js";
import {
  CASSETTE_FORMAT,
  type Cassette,
  type CassetteHeader,
  type CassetteWarning,
  type Interaction,
  type LoadedInteraction,
} from "./format.js";
import { type CassetteValidator, createCassetteValidator, type SchemaProblem } from "./schema.js";

/**
 * Cutting a cassette's YAML stream into documents on its `---` and `...` lines, one line at a time, so a
 * file of any size can be read as a stream (a whole file above ~512 MB does not fit in one string).
 */

/** A document as cut out of the file: its lines, where it starts, and whether its `...` was written. */
interface RawDocument {
  /** 1-based line of the `---` (or of the first line, for a document without one). */
  line: number;
  /** 1-based line of the first content line. */
  contentLine: number;
  lines: string[];
  closed: boolean;
}

function isMarker(line: string, marker: string): boolean {
  return line === marker || line.startsWith(`${marker} `) || line.startsWith(`${marker}\t`);
}

/** A blank or comment-only line. */
function isBlank(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}

/**
 * Cuts a stream of lines into documents. Cassette documents are maps written in block style, so a line
 * starting with `---` or `...` cannot be inside one. `emit` is called with each document once it has
 * ended (its `...`, the next `---`, or the end of the input); documents with no content are dropped.
 *
 * @example
 * const splitter = createDocumentSplitter((doc) => docs.push(doc));
 * for (const line of text.split("\n")) splitter.push(line);
 * splitter.end();
 */
function createDocumentSplitter(emit: (doc: RawDocument) => void): {
  push(line: string): void;
  end(): void;
} {
  let current: RawDocument | undefined;
  let lineNo = 0;
  const flush = () => {
    if (current?.lines.some((l) => !isBlank(l))) emit(current);
    current = undefined;
  };
  return {
    push(rawLine) {
      lineNo++;
      const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
      if (isMarker(line, "---")) {
        flush();
        current = { line: lineNo, contentLine: lineNo + 1, lines: [], closed: false };
        const rest = line.slice(4).trim();
        if (rest !== "" && !rest.startsWith("#")) {
          current.lines.push(rest);
          current.contentLine = lineNo;
        }
      } else if (isMarker(line, "...")) {
        if (current) current.closed = true;
        flush();
      } else if (current) {
        current.lines.push(line);
      } else if (!isBlank(line)) {
        current = { line: lineNo, contentLine: lineNo, lines: [line], closed: false };
      }
    },
    end: flush,
  };
}

/** The longest line read (characters): a body of 50 MB, base64-encoded, fits several times over. */
const MAX_LINE_CHARS = 256 * 1024 * 1024;

function lineTooLong(path: string, line: number): AssopayError {
  return new AssopayError(
    "bad-cassette",
    `line ${line} is longer than ${MAX_LINE_CHARS} characters: this is not a cassette the recorder wrote`,
    {
      location: { file: path, line },
      hint: "check the path: a cassette is a YAML file written by 'assopay record'",
    },
  );
}

/** A read that failed once the file was open (an I/O error): the file and why. */
function unreadable(path: string, error: unknown): AssopayError {
  return new AssopayError("bad-cassette", `cannot read the cassette: ${(error as Error).message}`, {
    location: { file: path },
    hint: "check the file system the cassette is on, then try again",
    cause: error,
  });
}

/** How much of the file is read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file as a stream of lines (split on "\n"), handing each to `onLine`: a file of any size is read
 * without holding its text whole. An unreadable file, or a line longer than any cassette holds, is an
 * `AssopayError` ('bad-cassette') naming the file (and the line); one thrown by `onLine` passes through.
 *
 * The file is read through a `FileHandle`, a megabyte at a time, not through a read stream: a replay that
 * had read a 36 MB cassette through `fs.createReadStream` then served every request with about 25% more
 * CPU than one that had read it this way (bench/history/performance-log.md, "replay flat from 10 to 100,000").
 *
 * @example
 * await readLines("recordings/crawl.yaml", (line) => splitter.push(line));
 */
async function readLines(path: string, onLine: (line: string) => void): Promise<void> {
  const handle: FileHandle = await openInput(path, "bad-cassette", "cassette");
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // The start of a line not ended yet, in pieces (a long base64 line spans many chunks).
  let pending: string[] = [];
  let pendingChars = 0;
  let lineNo = 0;
  const take = (chunk: string) => {
    const lines = chunk.split("\n");
    if (lines.length === 1) {
      pending.push(chunk);
      pendingChars += chunk.length;
      if (pendingChars > MAX_LINE_CHARS) throw lineTooLong(path, lineNo + 1);
      return;
    }
    lines[0] = pending.join("") + lines[0];
    const last = lines.pop() ?? "";
    pending = [last];
    pendingChars = last.length;
    lineNo += lines.length;
    for (const line of lines) onLine(line);
  };
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      take(decoder.write(buffer.subarray(0, bytesRead)));
    }
    take(decoder.end());
    const last = pending.join("");
    if (last !== "") onLine(last);
  } catch (error) {
    // Only a failure of the file system is about the file; anything else passes through as it is.
    if (error instanceof Error && "syscall" in error) throw unreadable(path, error);
    throw error;
  } finally {
    await handle.close();
  }
}

/** A header line naming a cassette format, whatever its version: a file's first document is a cassette header. */
const FORMAT_LINE = /^format:\s*["']?assopay-cassette\//;

/**
 * What a file that is not a cassette looks like, from its first document's lines, in a few words that
 * never quote it (the file may be anything given by mistake: `/etc/shadow`): its kind and its size; and,
 * for a file another verb reads (a HAR, an OpenAPI document), what to do with it instead.
 */
function look(doc: RawDocument): { what: string; hint?: string } {
  const text = doc.lines.join("\n");
  if (text.includes("\u0000") || text.includes("\ufffd")) return { what: "binary data" };
  const first = doc.lines.find((line) => line.trim() !== "")?.trim() ?? "";
  if (first.startsWith("{") || first.startsWith("[")) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { what: "JSON or a YAML flow collection" };
    }
    const log = (data as { log?: { entries?: unknown } } | null)?.log;
    if (Array.isArray(log?.entries)) {
      return {
        what: "a HAR file (a browser's recorded traffic)",
        hint: "import it into a cassette first: assopay har import FILE.har --cassette PATH",
      };
    }
    if (typeof (data as { openapi?: unknown } | null)?.openapi === "string") return OPENAPI;
    return { what: "a JSON document" };
  }
  if (first.startsWith("<")) return { what: "HTML or XML" };
  if (doc.lines.some((line) => /^openapi:\s*["']?3\./.test(line))) return OPENAPI;
  const keys = doc.lines.filter((line) => /^[A-Za-z_][\w.-]*:(\s|$)/.test(line)).length;
  if (keys > 0) return { what: `a YAML map with ${keys} key${keys === 1 ? "" : "s"}, none of them "format"` };
  return {
    what: `text of ${doc.lines.length} line${doc.lines.length === 1 ? "" : "s"} that is not a YAML map`,
  };
}

const OPENAPI = {
  what: "an OpenAPI document",
  hint: "a provider's document describes the API, it records no traffic: compare it with 'assopay drift --openapi FILE', or serve it with a mock and verify that",
};

/** The error for a file whose first document is not a cassette header. */
function notACassette(file: string, doc: RawDocument): AssopayError {
  const { what, hint } = look(doc);
  return new AssopayError("bad-cassette", `this file is not a cassette: it looks like ${what}`, {
    location: { file, line: doc.contentLine },
    hint:
      hint ??
      `check the path: a cassette is a YAML file written by 'assopay record', starting with a header document (format: ${CASSETTE_FORMAT})`,
  });
}

const HINT = "every document starts with '---' and ends with '...'; see docs/cassettes.md";

/** At most this many alias expansions per document (cassettes written by the recorder have none). */
const MAX_ALIASES = 100;

interface ParsedDocument {
  data: unknown;
  lineOf(path: readonly (string | number)[]): number;
}

/** A document parsed by the one YAML helper, with its limits (depth, aliases), lines counted in the file. */
function parseRaw(doc: RawDocument, file: string): ParsedDocument {
  const parsed = parseYamlText(doc.lines.join("\n"), file, {
    code: "bad-cassette",
    what: "cassette document",
    firstLine: doc.contentLine,
    maxAliases: MAX_ALIASES,
    merge: false,
    hint: HINT,
  });
  return { data: parsed.data, lineOf: (path) => parsed.lineOf(path) ?? doc.line };
}

/**
 * A document's data: read by the fast reader when it is in the emitter's style, else by the `yaml`
 * package. `located()` gives it with line numbers, for messages (parsed by the `yaml` package then, once).
 */
function readDocument(doc: RawDocument, file: string): { data: unknown; located(): ParsedDocument } {
  const data = readBlockDocument(doc.lines);
  let parsed = data === undefined ? parseRaw(doc, file) : undefined;
  return {
    data: parsed ? parsed.data : data,
    located: () => {
      parsed ??= parseRaw(doc, file);
      return parsed;
    },
  };
}

function schemaError(
  file: string,
  parsed: ParsedDocument,
  problem: SchemaProblem,
  what: string,
): AssopayError {
  const status = problem.message.includes("is not a final HTTP status");
  return new AssopayError(
    "bad-cassette",
    `the ${what} does not match the cassette schema: ${problem.message}`,
    {
      location: { file, line: parsed.lineOf(problem.path) },
      hint: status
        ? "the recorder never stores such a status: correct it, or remove this interaction (from its '---' to its '...')"
        : HINT,
    },
  );
}

function readHeader(
  file: string,
  doc: RawDocument | undefined,
  validator: CassetteValidator,
): CassetteHeader {
  if (!doc) {
    throw new AssopayError("bad-cassette", "the cassette is empty: it has no header document", {
      location: { file, line: 1 },
      hint: `a cassette starts with a header (format: ${CASSETTE_FORMAT}); record one with 'assopay record'`,
    });
  }
  if (!doc.lines.some((line) => FORMAT_LINE.test(line))) throw notACassette(file, doc);
  if (!doc.closed) {
    throw new AssopayError("bad-cassette", "the header document is incomplete (no closing '...')", {
      location: { file, line: doc.line },
      hint: "the recorder was stopped while writing the header, so the file holds no exchange: record it again with 'assopay record --mode all'",
    });
  }
  const parsed = parseRaw(doc, file);
  const format = (parsed.data as { format?: unknown } | null)?.format;
  if (typeof format === "string" && format !== CASSETTE_FORMAT) {
    throw new AssopayError(
      "bad-cassette",
      `the cassette is format "${format}"; this tool reads "${CASSETTE_FORMAT}"`,
      {
        location: { file, line: parsed.lineOf(["format"]) },
        hint: "use the version of assopay-contract that recorded it, or record it again",
      },
    );
  }
  const problem = validator.header(parsed.data);
  if (problem) throw schemaError(file, parsed, problem, "header");
  return parsed.data as CassetteHeader;
}

/**
 * Builds a cassette from its lines, checking each document as it comes (see {@link parseCassette}). With
 * `onInteraction`, each interaction is handed to it and not kept (the cassette built has none).
 */
function createCassetteBuilder(
  file: string,
  validator: CassetteValidator,
  onInteraction?: (interaction: LoadedInteraction) => void,
): { push(line: string): void; finish(): Cassette } {
  let header: CassetteHeader | undefined;
  const warnings: CassetteWarning[] = [];
  const interactions: LoadedInteraction[] = [];
  const ids = new Map<number, number>();
  const interaction = (doc: RawDocument) => {
    if (!doc.closed) {
      warnings.push({
        file,
        line: doc.line,
        message:
          "incomplete document (no closing '...'), skipped: the recorder was probably stopped while writing it",
      });
      return;
    }
    const read = readDocument(doc, file);
    const problem = validator.interaction(read.data);
    if (problem) throw schemaError(file, read.located(), problem, "interaction");
    const found = read.data as Interaction;
    const seen = ids.get(found.id);
    if (seen !== undefined) {
      throw new AssopayError("bad-cassette", `interaction id ${found.id} is already used at line ${seen}`, {
        location: { file, line: read.located().lineOf(["id"]) },
        hint: "give every interaction its own id",
      });
    }
    ids.set(found.id, doc.line);
    const loaded = Object.freeze({ ...found, source: { file, line: doc.line } });
    if (onInteraction) onInteraction(loaded);
    else interactions.push(loaded);
  };
  const splitter = createDocumentSplitter((doc) => {
    if (header === undefined) header = readHeader(file, doc, validator);
    else interaction(doc);
  });
  return {
    push: splitter.push,
    finish() {
      splitter.end();
      return Object.freeze({
        file,
        header: header ?? readHeader(file, undefined, validator),
        interactions,
        warnings,
      });
    },
  };
}

/**
 * Parses a cassette's text. Bad YAML, a document that does not match the schema, a wrong format or a
 * reused id throw an `AssopayError` ('bad-cassette', exit 2) with the file and line. A document without
 * its closing `...` (cut by a crash while recording) is skipped and reported in `warnings`.
 *
 * @example
 * const cassette = parseCassette(text, "recordings/crawl.yaml");
 * for (const warning of cassette.warnings) console.warn(`${warning.file}:${warning.line}: ${warning.message}`);
 */
export function parseCassette(text: string, file: string, validator = createCassetteValidator()): Cassette {
  const builder = createCassetteBuilder(file, validator);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) builder.push(line);
  return builder.finish();
}

/**
 * Reads and checks a cassette file (see {@link parseCassette}), as a stream of lines: a file of any size
 * is read without holding its text whole. A missing or unreadable file is an `AssopayError` ('bad-cassette').
 * With `onInteraction`, each interaction is handed to it as soon as it is read and none is kept (the
 * cassette returned has none): a reader that keeps only what it makes of each one (replay's index) then
 * never holds the parsed cassette whole, and each parsed document is garbage while it is still young.
 *
 * @example
 * const cassette = await loadCassette("recordings/pagination-crawl.yaml");
 * console.log(cassette.header.upstream, cassette.interactions.length);
 */
export async function loadCassette(
  path: string,
  validator = createCassetteValidator(),
  onInteraction?: (interaction: LoadedInteraction) => void,
): Promise<Cassette> {
  const builder = createCassetteBuilder(path, validator, onInteraction);
  await readLines(path, builder.push);
  return builder.finish();
}

/** Thrown by the line handler to stop reading once the header is read. */
const HEADER_READ = Symbol("header read");

/**
 * The header of a cassette file, checked as `loadCassette` checks it, read without reading further than
 * its first document. A missing file, a file that is not a cassette or a bad header is an `AssopayError`.
 *
 * @example
 * const header = await readCassetteHeader("recordings/crawl.yaml", createCassetteValidator());
 */
export async function readCassetteHeader(
  path: string,
  validator: CassetteValidator,
): Promise<CassetteHeader> {
  let header: CassetteHeader | undefined;
  const splitter = createDocumentSplitter((doc) => {
    header = readHeader(path, doc, validator);
    throw HEADER_READ;
  });
  try {
    await readLines(path, splitter.push);
    splitter.end();
  } catch (error) {
    if (error !== HEADER_READ) throw error;
  }
  return header ?? readHeader(path, undefined, validator);
}
