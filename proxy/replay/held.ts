import { bodyBytes, compress } from "../cassette/body.js";
import type { ContentCoding, StoredBody, StoredHeaders, StoredResponse } from "../cassette/format.js";

/**
 * A recorded response as replay serves it: its body as the decoded bytes in a `Buffer` (for a recorded
 * interaction, a view of the index's own bytes, `recordings.ts`), rather than as the parsed data a
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
