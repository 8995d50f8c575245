import type { ServerResponse } from "node:http";
import { type HeldResponse, heldWireBytes } from "./held.js";

type WireHeaders = Record<string, string | string[] | number>;

function write(res: ServerResponse, method: string, status: number, headers: WireHeaders, bytes: Buffer) {
  res.writeHead(status, headers);
  res.end(method === "HEAD" ? undefined : bytes);
}

function wireHeaders(response: HeldResponse, extra: Record<string, string>, length: number): WireHeaders {
  return { ...response.headers, ...extra, "content-length": length };
}

/**
 * Writes a held response: its status and headers, a fresh `content-length`, and the body restored byte
 * for byte (re-compressed when it was recorded compressed). `HEAD` gets no body.
 */
export async function sendHeld(
  res: ServerResponse,
  method: string,
  response: HeldResponse,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const bytes = await heldWireBytes(response);
  write(res, method, response.status, wireHeaders(response, extraHeaders, bytes.length), bytes);
}

/** Writes a held response; synchronous (undefined) when it was prepared before. */
export type Responder = (
  res: ServerResponse,
  method: string,
  response: HeldResponse,
  extraHeaders: Record<string, string>,
) => Promise<void> | undefined;

interface Prepared {
  readonly extra: Record<string, string>;
  readonly headers: WireHeaders;
  readonly bytes: Buffer;
}

/**
 * A `sendHeld` that prepares each recorded response once (headers merged and, when it was recorded
 * compressed, the body re-compressed) and writes the prepared form on every later request, without
 * waiting. Responses are remembered by identity together with their extra headers, so a response
 * rewritten per request (the timeline's counts) is a new object and is prepared afresh.
 */
export function cachedResponder(): Responder {
  const cache = new WeakMap<HeldResponse, Prepared>();
  return (res, method, response, extra) => {
    const ready = cache.get(response);
    if (ready && ready.extra === extra) {
      write(res, method, response.status, ready.headers, ready.bytes);
      return undefined;
    }
    return Promise.resolve(heldWireBytes(response)).then((bytes) => {
      const prepared = { extra, headers: wireHeaders(response, extra, bytes.length), bytes };
      cache.set(response, prepared);
      write(res, method, response.status, prepared.headers, bytes);
    });
  };
}
