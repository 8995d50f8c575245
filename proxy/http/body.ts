import type { IncomingMessage, ServerResponse } from "node:http";
import { problem, sendProblem } from "./problem.js";

/** A body read whole, or the news that it is over the limit (what was read is dropped). */
export type ReadBody = { ok: true; bytes: Buffer } | { ok: false; length: number | undefined };

/**
 * Reads a request body into memory, up to `limit` bytes. A declared `content-length` over the limit is
 * refused before reading anything; a body that grows over it is dropped as soon as it does.
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

/** The sentence for a refused body. */
export function tooLargeDetail(
  what: "request" | "response",
  limit: number,
  length: number | undefined,
): string {
  const size = length === undefined ? `over ${limit} bytes` : `${length} bytes, over the limit of ${limit}`;
  return `the ${what} body is ${size}; raise the limit with --max-body (maxBodyBytes) if this is expected`;
}

/**
 * Reads a request body whole, or refuses it: answers 413 with a problem+json body titled `title`, closes
 * the connection, and resolves to the sentence it sent.
 */
export async function readBodyOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  title: string,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; detail: string }> {
  const body = await readBody(req, limit);
  if (body.ok) return body;
  const detail = tooLargeDetail("request", limit, body.length);
  res.setHeader("connection", "close");
  sendProblem(res, problem("body-too-large", 413, title, detail));
  return { ok: false, detail };
}
