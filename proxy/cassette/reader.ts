import { AssopayError } from "../../core/errors.js";
import { parseYamlText } from "../../core/yaml-file.js";
import { readBlockDocument } from "./block-reader.js";
import { createDocumentSplitter, type RawDocument } from "./documents.js";
import {
  CASSETTE_FORMAT,
  type Cassette,
  type CassetteHeader,
  type CassetteWarning,
  type Interaction,
  type LoadedInteraction,
} from "./format.js";
import { readLines } from "./read-lines.js";
import {
  type CassetteValidator,
  createCassetteValidator,
  type SchemaProblem,
  statusProblem,
} from "./schema.js";
import { looksLikeCassette, notACassette } from "./sniff.js";

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
  if (!looksLikeCassette(doc)) throw notACassette(file, doc);
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
 * Builds a cassette from its documents, checking each as it comes (see {@link parseCassette}). With
 * `onInteraction`, each interaction is handed to it and not kept (the cassette built has none).
 */
function createCassetteBuilder(
  file: string,
  validator: CassetteValidator,
  onInteraction?: (interaction: LoadedInteraction) => void,
): { document(doc: RawDocument): void; finish(): Cassette } {
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
    const problem = validator.interaction(read.data) ?? statusProblem(read.data);
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
  return {
    document(doc) {
      if (header === undefined) header = readHeader(file, doc, validator);
      else interaction(doc);
    },
    finish() {
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
  const splitter = createDocumentSplitter(builder.document);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) splitter.push(line);
  splitter.end();
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
  const splitter = createDocumentSplitter(builder.document);
  await readLines(path, splitter.push);
  splitter.end();
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
