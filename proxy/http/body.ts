import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyOrRefuse as readOrRefuse, tooLargeDetail as sentence } from "../../core/http/body.js";

/** How to raise the proxy's body limit: its flag and its option. */
const REMEDY = "raise the limit with --max-body (maxBodyBytes) if this is expected";

/** The sentence for a body over the proxy's limit, with the way to raise it. */
export function tooLargeDetail(
  what: "request" | "response",
  limit: number,
  length: number | undefined,
): string {
  return sentence(what, limit, length, REMEDY);
}

/**
 * Reads a request body whole, or refuses it over `limit` with a 413 problem titled `title` that says how
 * to raise the limit (see `readBodyOrRefuse` in `core/http/body.ts`).
 */
export function readBodyOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  title: string,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; detail: string }> {
  return readOrRefuse(req, res, { bytes: limit, title, remedy: REMEDY });
}
