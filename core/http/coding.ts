import { promisify } from "node:util";
import * as zlib from "node:zlib";

/** The content codings this project undoes (and replay re-applies). */
export type ContentCoding = "gzip" | "deflate" | "br";

/**
 * The most bytes one body is decoded to, everywhere a body is decoded (the recorder and every reader of
 * its journals, verify, gate): 50 MiB, the recorder's default bound on a body as it comes. A body that
 * decodes to more (a 16 KB brotli answer can hold 10 GB) is never decoded whole: decoding stops at the
 * bound, and the caller keeps the body as it came.
 */
export const MAX_DECODED_BYTES = 50 * 1024 * 1024;

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** The error of a body that decodes to more than the bound: {@link isOversized} tells it from damage. */
class OversizedBody extends Error {
  constructor(coding: ContentCoding, maxBytes: number) {
    super(`the ${coding} body decodes to more than ${maxBytes} bytes, the bound on a decoded body`);
  }
}

/** Whether a {@link decompress} failure is the bound, not bytes that do not decode. */
export function isOversized(error: unknown): boolean {
  return error instanceof OversizedBody;
}

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

function undo(bytes: Buffer, coding: ContentCoding, options: zlib.ZlibOptions): Promise<Buffer> {
  switch (coding) {
    case "gzip":
      return gunzip(bytes, options);
    case "deflate":
      return inflate(bytes, options).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ERR_BUFFER_TOO_LARGE") throw error;
        return inflateRaw(bytes, options);
      });
    case "br":
      return brotliDecompress(bytes, options);
  }
}

/**
 * Undoes a content coding; `deflate` is read with its zlib wrapper or without (as some servers send it).
 * Decoding stops past `maxBytes` (default {@link MAX_DECODED_BYTES}) with an error {@link isOversized}
 * tells apart: memory stays bounded whatever the bytes claim.
 */
export async function decompress(
  bytes: Buffer,
  coding: ContentCoding,
  maxBytes = MAX_DECODED_BYTES,
): Promise<Buffer> {
  return undo(bytes, coding, { maxOutputLength: maxBytes }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ERR_BUFFER_TOO_LARGE" ? new OversizedBody(coding, maxBytes) : error;
  });
}

/**
 * The bytes of a body with its `content-encoding` undone: as they are when there is none (or `identity`),
 * `undefined` when the coding is unknown, the bytes do not decode or decode past the bound. For callers
 * that must read the content or leave it alone; a caller that keeps unknown codings as they came uses
 * {@link contentCoding}.
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
