import { readFile } from "node:fs/promises";
import { LineCounter, parseDocument } from "yaml";
import { AssopayError } from "../../core/errors.js";
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

/** A document as cut out of the file: its lines, where it starts, and whether its `...` was written. */
interface RawDocument {
  /** 1-based line of the `---` (or of the first line, for a document without one). */
  line: number;
  /** 1-based line of the first content line. */
  contentLine: number;
  lines: string[];
  closed: boolean;
}

const HINT = "every document starts with '---' and ends with '...'; see docs/cassettes.md";

function isMarker(line: string, marker: string): boolean {
  return line === marker || line.startsWith(`${marker} `) || line.startsWith(`${marker}\t`);
}

function isBlank(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}

/**
 * Cuts a YAML stream into documents on its `---` and `...` lines. Cassette documents are maps written in
 * block style, so a line starting with `---` or `...` cannot be inside one.
 */
function splitDocuments(text: string): RawDocument[] {
  const docs: RawDocument[] = [];
  let current: RawDocument | undefined;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    if (isMarker(line, "---")) {
      current = { line: i + 1, contentLine: i + 2, lines: [], closed: false };
      docs.push(current);
      const rest = line.slice(4).trim();
      if (rest !== "" && !rest.startsWith("#")) {
        current.lines.push(rest);
        current.contentLine = i + 1;
      }
    } else if (isMarker(line, "...")) {
      if (current) current.closed = true;
      current = undefined;
    } else if (current) {
      current.lines.push(line);
    } else if (!isBlank(line)) {
      current = { line: i + 1, contentLine: i + 1, lines: [line], closed: false };
      docs.push(current);
    }
  }
  return docs.filter((doc) => doc.lines.some((l) => !isBlank(l)));
}

interface ParsedDocument {
  data: unknown;
  lineOf(path: readonly (string | number)[]): number;
}

function parseRaw(doc: RawDocument, file: string): ParsedDocument {
  const lineCounter = new LineCounter();
  const yaml = parseDocument(doc.lines.join("\n"), { lineCounter, uniqueKeys: true });
  const first = yaml.errors[0];
  if (first) {
    const line = (first.linePos?.[0]?.line ?? 1) + doc.contentLine - 1;
    throw new AssopayError("bad-cassette", `not valid YAML: ${first.message.split("\n")[0]}`, {
      location: { file, line },
      hint: HINT,
    });
  }
  const data: unknown = yaml.toJS({ maxAliasCount: 100 });
  const lineOf = (path: readonly (string | number)[]): number => {
    let node: unknown = yaml.contents;
    let offset = yaml.contents?.range?.[0];
    for (const key of path) {
      const next =
        node && typeof node === "object" && "get" in node
          ? (node as { get(k: unknown, keep: boolean): unknown }).get(key, true)
          : undefined;
      if (!next || typeof next !== "object") break;
      node = next;
      offset = (next as { range?: [number, number, number] }).range?.[0] ?? offset;
    }
    return offset === undefined ? doc.line : lineCounter.linePos(offset).line + doc.contentLine - 1;
  };
  return { data, lineOf };
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
  return new AssopayError(
    "bad-cassette",
    `the ${what} does not match the cassette schema: ${problem.message}`,
    {
      location: { file, line: parsed.lineOf(problem.path) },
      hint: HINT,
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
  if (!doc.closed) {
    throw new AssopayError("bad-cassette", "the header document is incomplete (no closing '...')", {
      location: { file, line: doc.line },
      hint: "the recorder was stopped before it wrote anything: delete the file and record again",
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
 * Parses a cassette's text. Bad YAML, a document that does not match the schema, a wrong format or a
 * reused id throw an `AssopayError` ('bad-cassette', exit 2) with the file and line. A document without
 * its closing `...` (cut by a crash while recording) is skipped and reported in `warnings`.
 *
 * @example
 * const cassette = parseCassette(text, "recordings/crawl.yaml");
 * for (const warning of cassette.warnings) console.warn(`${warning.file}:${warning.line}: ${warning.message}`);
 */
export function parseCassette(text: string, file: string, validator = createCassetteValidator()): Cassette {
  const docs = splitDocuments(text);
  const header = readHeader(file, docs[0], validator);
  const warnings: CassetteWarning[] = [];
  const interactions: LoadedInteraction[] = [];
  const ids = new Map<number, number>();
  for (const doc of docs.slice(1)) {
    if (!doc.closed) {
      warnings.push({
        file,
        line: doc.line,
        message:
          "incomplete document (no closing '...'), skipped: the recorder was probably stopped while writing it",
      });
      continue;
    }
    const read = readDocument(doc, file);
    const problem = validator.interaction(read.data);
    if (problem) throw schemaError(file, read.located(), problem, "interaction");
    const interaction = read.data as Interaction;
    const seen = ids.get(interaction.id);
    if (seen !== undefined) {
      throw new AssopayError(
        "bad-cassette",
        `interaction id ${interaction.id} is already used at line ${seen}`,
        {
          location: { file, line: read.located().lineOf(["id"]) },
          hint: "give every interaction its own id",
        },
      );
    }
    ids.set(interaction.id, doc.line);
    interactions.push(Object.freeze({ ...interaction, source: { file, line: doc.line } }));
  }
  return Object.freeze({ file, header, interactions, warnings });
}

/**
 * Reads and checks a cassette file (see {@link parseCassette}). A missing or unreadable file is an
 * `AssopayError` ('bad-cassette').
 *
 * @example
 * const cassette = await loadCassette("recordings/pagination-crawl.yaml");
 * console.log(cassette.header.upstream, cassette.interactions.length);
 */
export async function loadCassette(path: string, validator?: CassetteValidator): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new AssopayError("bad-cassette", `cannot read the cassette: ${(error as Error).message}`, {
      location: { file: path },
      hint: "check the path; record a cassette with 'assopay record'",
      cause: error,
    });
  }
  return parseCassette(text, path, validator);
}
