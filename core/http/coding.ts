import { promisify } from "node:util";
import * as zlib from "node:zlib";

/** The content codings this project undoes (and replay re-applies). */
export type ContentCoding = "gzip" | "deflate" | "br";

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/**
 * The content coding a `content-encoding` value names, if it is one of ours (`x-gzip` is `gzip`);
 * `undefined` for none, `identity`, and codings we do not know (`zstd`, `gzip, br`).
 */
export function contentCoding(header: string | undefined): ContentCoding | undefined {
  const value = header?.trim().toLowerCase();
  if (value === "gzip" || value === "x-gzip") return "gzip";
  if (value === "deflate") return "deflate";
  if (value === "br") return "br";
  return undefined;
}

/** Undoes a content coding; `deflate` is read with its zlib wrapper or without (as some servers send it). */
export async function decompress(bytes: Buffer, coding: ContentCoding): Promise<Buffer> {
  switch (coding) {
    case "gzip":
      return gunzip(bytes);
    case "deflate":
      return inflate(bytes).catch(() => inflateRaw(bytes));
    case "br":
      return brotliDecompress(bytes);
  }
}

/**
 * The bytes of a body with its `content-encoding` undone: as they are when there is none (or `identity`),
 * `undefined` when the coding is unknown or the bytes do not decode. For callers that must read the
 * content or leave it alone; a caller that keeps unknown codings as they came uses {@link contentCoding}.
 *
 * @example
 * const json = await decodedBytes(answer.body, answer.headers["content-encoding"]);
 */
export async function decodedBytes(
  bytes: Buffer,
  contentEncoding: string | undefined,
): Promise<Buffer | undefined> {
  const value = contentEncoding?.trim().toLowerCase() ?? "";
  if (value === "" || value === "identity") return bytes;
  const coding = contentCoding(value);
  if (coding === undefined) return undefined;
  return decompress(bytes, coding).catch(() => undefined);
}
