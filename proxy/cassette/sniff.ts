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
 * never quote it (the file may be anything given by mistake: `/etc/shadow`): its kind and its size.
 */
export function lookOf(doc: RawDocument): string {
  const text = doc.lines.join("\n");
  if (text.includes("\u0000") || text.includes("\ufffd")) return "binary data";
  const first = doc.lines.find((line) => line.trim() !== "")?.trim() ?? "";
  if (first.startsWith("{") || first.startsWith("[")) {
    try {
      JSON.parse(text);
      return "a JSON document";
    } catch {
      return "JSON or a YAML flow collection";
    }
  }
  if (first.startsWith("<")) return "HTML or XML";
  const keys = doc.lines.filter((line) => /^[A-Za-z_][\w.-]*:(\s|$)/.test(line)).length;
  if (keys > 0) return `a YAML map with ${keys} key${keys === 1 ? "" : "s"}, none of them "format"`;
  return `text of ${doc.lines.length} line${doc.lines.length === 1 ? "" : "s"} that is not a YAML map`;
}

/** The error for a file whose first document is not a cassette header. */
export function notACassette(file: string, doc: RawDocument): AssopayError {
  return new AssopayError("bad-cassette", `this file is not a cassette: it looks like ${lookOf(doc)}`, {
    location: { file, line: doc.contentLine },
    hint: `check the path: a cassette is a YAML file written by 'assopay record', starting with a header document (format: ${CASSETTE_FORMAT})`,
  });
}
