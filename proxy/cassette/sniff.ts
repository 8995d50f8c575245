import { AssopayError } from "../../core/errors.js";
import type { RawDocument } from "./documents.js";
import { CASSETTE_FORMAT } from "./format.js";

/** A header line naming a cassette format, whatever its version. */
const FORMAT_LINE = /^format:\s*["']?assopay-cassette\//;

/** Whether a file's first document is a cassette header (any version): it has a `format: assopay-cassette/…` line. */
export function looksLikeCassette(doc: RawDocument): boolean {
  return doc.lines.some((line) => FORMAT_LINE.test(line));
}

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
export function notACassette(file: string, doc: RawDocument): AssopayError {
  const { what, hint } = look(doc);
  return new AssopayError("bad-cassette", `this file is not a cassette: it looks like ${what}`, {
    location: { file, line: doc.contentLine },
    hint:
      hint ??
      `check the path: a cassette is a YAML file written by 'assopay record', starting with a header document (format: ${CASSETTE_FORMAT})`,
  });
}
