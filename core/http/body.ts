import type { IncomingMessage, ServerResponse } from "node:http";
import { problem, sendProblem } from "./problem.js";

/** A body read whole, or the news that it is over the limit (what was read is dropped). */
export type ReadBody = { ok: true; bytes: Buffer } | { ok: false; length: number | undefined };

/**
 * Reads a request body into memory, up to `limit` bytes (a body of exactly `limit` bytes is read). A
 * declared `content-length` over the limit is refused before reading anything; a body that grows over it
 * (chunked, or longer than declared) is dropped as soon as it does, and the rest is drained unread.
 * Rejects when the request fails (the client went away).
 *
 * @example
 * const body = await readBody(req, 1_048_576);
 * if (!body.ok) refuseTooLarge(res, "Request body too large", tooLargeDetail("request", 1_048_576, body.length));
 */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  const declared =
    req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
  if (declared !== undefined && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, length: declared });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve({ ok: false, length: undefined });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over)
        resolve({
          ok: true,
          bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
        });
    });
    req.on("error", reject);
  });
}

/**
 * The sentence for a refused body: its size (when it was declared) and the limit, then `remedy`, the way
 * to raise the limit where there is one.
 */
export function tooLargeDetail(
  what: "request" | "response",
  limit: number,
  length: number | undefined,
  remedy?: string,
): string {
  const size = length === undefined ? `over ${limit} bytes` : `${length} bytes, over the limit of ${limit}`;
  const sentence = `the ${what} body is ${size}`;
  return remedy === undefined ? sentence : `${sentence}; ${remedy}`;
}

/** Answers 413 with a problem+json body (`body-too-large`) and closes the connection. */
export function refuseTooLarge(res: ServerResponse, title: string, detail: string): void {
  sendProblem(res, problem("body-too-large", 413, title, detail), { connection: "close" });
}

/** A body limit as a server applies it: the bytes, the problem's title, and how to raise the limit. */
export interface BodyLimit {
  readonly bytes: number;
  readonly title: string;
  readonly remedy?: string;
}

/**
 * Reads a request body whole, or refuses it: answers 413 with a problem+json body titled `limit.title`,
 * closes the connection, and resolves to the sentence it sent.
 *
 * @example
 * const body = await readBodyOrRefuse(req, res, { bytes: 1_048_576, title: "Request body too large" });
 * if (!body.ok) return; // answered already
 */
export async function readBodyOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  limit: BodyLimit,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; detail: string }> {
  const body = await readBody(req, limit.bytes);
  if (body.ok) return body;
  const detail = tooLargeDetail("request", limit.bytes, body.length, limit.remedy);
  refuseTooLarge(res, limit.title, detail);
  return { ok: false, detail };
}
