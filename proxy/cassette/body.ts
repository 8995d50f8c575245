import { isUtf8 } from "node:buffer";
import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { contentCoding, decompress, isOversized } from "../../core/http/coding.js";
import type { ContentCoding, StoredBody } from "./format.js";

const COMPRESSORS: Record<ContentCoding, (bytes: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
  br: promisify(zlib.brotliCompress),
};

/** Applies a content coding (the bytes differ from the recorded ones; the decoded content does not). */
export function compress(bytes: Buffer, coding: ContentCoding): Promise<Buffer> {
  return COMPRESSORS[coding](bytes);
}

/** `application/json`, `application/problem+json`, `text/json`. */
export function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type === "application/json" || type === "text/json" || type.endsWith("+json");
}

/** `application/x-www-form-urlencoded`. */
export function isFormType(contentType: string | undefined): boolean {
  return (contentType?.split(";")[0] ?? "").trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/** Types whose bodies are text for people: anything else that is not declared is judged by its bytes. */
function isTextType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    isJsonType(type) ||
    isFormType(type) ||
    type.endsWith("+xml") ||
    type === "application/xml" ||
    type === "application/javascript"
  );
}

/** The text of bytes that are valid UTF-8 (a byte-order mark kept as U+FEFF), else undefined. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/**
 * JSON bodies longer than this (in characters) are kept as text: turning a megabyte of JSON into a YAML
 * map costs more than recording is worth, and nobody reads it as a map.
 */
export const JSON_MAP_LIMIT = 512 * 1024;

/**
 * A body as stored: JSON as data when `JSON.stringify` gives the very same bytes back, text as text,
 * anything else as base64. `decoded` are the bytes after undoing `coding`.
 */
export function classifyBody(
  decoded: Buffer,
  contentType: string | undefined,
  coding?: ContentCoding,
): StoredBody {
  const extra = coding ? { encoding: coding } : {};
  const text = isTextType(contentType) ? utf8Text(decoded) : undefined;
  if (text === undefined) return { base64: decoded.toString("base64"), ...extra };
  if (isJsonType(contentType) && text.length <= JSON_MAP_LIMIT && !text.includes('"__proto__"')) {
    try {
      const value: unknown = JSON.parse(text);
      if (JSON.stringify(value) === text) return { json: value, ...extra };
    } catch {
      // not JSON after all: kept as text
    }
  }
  return { text, ...extra };
}

/**
 * Whether `classifyBody` would try to keep a body as JSON (a JSON type, no content coding, valid UTF-8,
 * not too long, no `"__proto__"`). Whether it is kept as JSON then depends on the text being canonical;
 * the recorder's fast path (`JsonToYaml`) decides that without parsing.
 */
export function isJsonCandidate(
  wire: Buffer,
  contentType: string | undefined,
  contentEncoding: string | undefined,
): boolean {
  if (contentEncoding !== undefined || wire.length === 0 || wire.length > JSON_MAP_LIMIT) return false;
  return isJsonType(contentType) && isUtf8(wire) && !wire.includes('"__proto__"');
}

/**
 * The stored form of wire bytes when no decompression is needed (undefined for an empty body), or
 * `"decode"` when the bytes must first be decompressed (see {@link storeBody}).
 */
export function storeBodyNow(
  wire: Buffer,
  contentType: string | undefined,
  contentEncoding: string | undefined,
): StoredBody | undefined | "decode" {
  if (wire.length === 0) return undefined;
  if (contentEncoding === undefined) return classifyBody(wire, contentType);
  if (contentCoding(contentEncoding)) return "decode";
  if (contentEncoding.trim().toLowerCase() !== "identity") return { base64: wire.toString("base64") };
  return classifyBody(wire, contentType);
}

/**
 * The stored form of wire bytes: decoded from gzip/deflate/br when the header says so. Bytes that fail
 * to decode are kept as they came, base64, without `encoding`; so are bytes that decode past the bound
 * (`MAX_DECODED_BYTES`), with a `note` saying so. Empty bodies are not stored.
 */
export async function storeBody(
  wire: Buffer,
  contentType: string | undefined,
  contentEncoding: string | undefined,
): Promise<StoredBody | undefined> {
  const now = storeBodyNow(wire, contentType, contentEncoding);
  if (now !== "decode") return now;
  const coding = contentCoding(contentEncoding) as ContentCoding;
  try {
    return classifyBody(await decompress(wire, coding), contentType, coding);
  } catch (error) {
    const note = isOversized(error) ? { note: `kept as received: ${(error as Error).message}` } : {};
    return { base64: wire.toString("base64"), ...note };
  }
}

/** The decoded bytes of a stored body (before any content coding). */
export function bodyBytes(body: StoredBody | undefined): Buffer {
  if (!body) return Buffer.alloc(0);
  if ("json" in body) return Buffer.from(JSON.stringify(body.json), "utf8");
  if ("text" in body) return Buffer.from(body.text, "utf8");
  return Buffer.from(body.base64, "base64");
}
