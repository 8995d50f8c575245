import type { ServerResponse } from "node:http";
import { bodyBytes, compress } from "../cassette/body.js";
import type { ContentCoding, StoredBody, StoredHeaders, StoredResponse } from "../cassette/format.js";

type WireHeaders = Record<string, string | string[] | number>;

function write(res: ServerResponse, method: string, status: number, headers: WireHeaders, bytes: Buffer) {
  res.writeHead(status, headers);
  res.end(method === "HEAD" ? undefined : bytes);
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
 * A responder that prepares each recorded response once (headers merged and, when it was recorded
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
      const headers = { ...response.headers, ...extra, "content-length": bytes.length };
      const prepared = { extra, headers, bytes };
      cache.set(response, prepared);
      write(res, method, response.status, prepared.headers, bytes);
    });
  };
}

/**
 * A recorded response as replay serves it: its body as the decoded bytes in a `Buffer` (for a recorded
 * interaction, a view of the index's own bytes, `Recordings`), rather than as the parsed data a
 * cassette loads into (a hundred objects for a page of twenty entries).
 */
export interface HeldResponse {
  readonly status: number;
  readonly headers: StoredHeaders;
  /** The body's bytes before any content coding (empty for no body). */
  readonly bytes: Buffer;
  /** The content coding the body had on the wire, re-applied when it is sent. */
  readonly encoding: ContentCoding | undefined;
  /** Whether the body was stored as JSON data: only then may the timeline rewrite it. */
  readonly json: boolean;
}

/** A stored response held as bytes (its headers kept as they are). */
export function hold(response: StoredResponse): HeldResponse {
  const body: StoredBody | undefined = response.body;
  return Object.freeze({
    status: response.status,
    headers: response.headers,
    bytes: bodyBytes(body),
    encoding: body?.encoding,
    json: body !== undefined && "json" in body,
  });
}

/** The bytes to send for a held response: its body, re-compressed when it was recorded compressed. */
export function heldWireBytes(held: HeldResponse): Promise<Buffer> | Buffer {
  return held.encoding ? compress(held.bytes, held.encoding) : held.bytes;
}
