import { bodyBytes, compress } from "../cassette/body.js";
import type {
  ContentCoding,
  DocumentSource,
  LoadedInteraction,
  StoredBody,
  StoredHeaders,
  StoredRequest,
  StoredResponse,
} from "../cassette/format.js";

/**
 * A recorded response as replay keeps it while serving: its body as the decoded bytes in a `Buffer`,
 * outside the JavaScript heap, rather than as the parsed data a cassette loads into (a hundred objects
 * for a page of twenty entries). A replay of 10,000 pages then serves from a heap of 25 MB in all, not
 * 120, and the garbage collector has none of the bodies to walk.
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

/** A recorded interaction as replay keeps it (notifications are never served, so none is held). */
export interface HeldInteraction {
  readonly id: number;
  readonly source: DocumentSource;
  readonly request: StoredRequest;
  readonly response: HeldResponse;
}

/**
 * A deep copy that shares no memory with the cassette's text. Strings read from a file are slices of the
 * whole text in V8, and one kept slice keeps all of it (36 MB for 10,000 pages); JSON's parser makes
 * every string anew.
 */
function detached<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
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

/** The request headers of these names (lower-case), the others left out. */
function onlyHeaders(headers: StoredHeaders, names: readonly string[]): StoredHeaders {
  const out: StoredHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (names.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * A loaded interaction as replay keeps it: a copy of its request and response headers, detached from the
 * file's text, and the response body as bytes. Of the request's headers only `matched` are kept (those
 * matching reads): the rest are never compared, and a large cassette would carry them all on the heap.
 */
export function holdInteraction(interaction: LoadedInteraction, matched: readonly string[]): HeldInteraction {
  const recorded = interaction.request;
  const { request, headers } = detached({
    request: { ...recorded, headers: onlyHeaders(recorded.headers, matched) },
    headers: interaction.response.headers,
  });
  return Object.freeze({
    id: interaction.id,
    source: interaction.source,
    request,
    response: hold({ ...interaction.response, headers }),
  });
}

/** The bytes to send for a held response: its body, re-compressed when it was recorded compressed. */
export function heldWireBytes(held: HeldResponse): Promise<Buffer> | Buffer {
  return held.encoding ? compress(held.bytes, held.encoding) : held.bytes;
}
