import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { storeBody, wireBytes } from "../cassette/body.js";
import type { StoredBody, StoredRequest, StoredResponse } from "../cassette/format.js";
import { firstHeader, parseTarget, storedHeaders } from "../http/message.js";
import { type Redactor, redactRequest } from "../redaction/redact.js";
import type { IndexedInteraction, ReplayIndex } from "./index.js";
import { type CanonicalRequest, canonicalize } from "./key.js";

/** An incoming request in stored form (not yet redacted). The target must be in origin form. */
export function incomingRequest(req: IncomingMessage, body: Buffer): Promise<StoredRequest> {
  return requestFrom(req.method ?? "GET", req.url ?? "/", req.headers, body);
}

/** A request in stored form from its parts (not yet redacted). */
export async function requestFrom(
  method: string,
  url: string,
  rawHeaders: IncomingHttpHeaders,
  body: Buffer,
): Promise<StoredRequest> {
  const target = parseTarget(url) ?? { path: "/", query: undefined };
  const headers = storedHeaders(rawHeaders);
  const request: StoredRequest = { method: method.toUpperCase(), path: target.path, headers };
  if (target.query) request.query = target.query;
  const stored = await storeBody(
    body,
    firstHeader(headers, "content-type"),
    firstHeader(headers, "content-encoding"),
  );
  if (stored) request.body = stored;
  return request;
}

/** The result of looking a request up: the interaction, if any, and the request's canonical form. */
export interface Lookup {
  entry: IndexedInteraction | undefined;
  canonical: CanonicalRequest;
  redacted: StoredRequest;
}

/**
 * Finds the recorded interaction for a request. The request is redacted the way each cassette was
 * (secrets always, personal data when the cassette says so) so that a real secret matches its placeholder.
 */
export function lookup(
  index: ReplayIndex,
  profiles: readonly Redactor[],
  request: StoredRequest,
  repeatLast: boolean,
): Lookup {
  let first: Lookup | undefined;
  for (const profile of profiles) {
    // Redaction changes JSON bodies in place: each way of redacting gets its own copy.
    const redacted = redactRequest(profiles.length > 1 ? structuredClone(request) : request, profile);
    const canonical = canonicalize(redacted);
    const entry = index.take(canonical.key, repeatLast);
    if (entry) return { entry, canonical, redacted };
    first ??= { entry: undefined, canonical, redacted };
  }
  return first ?? { entry: undefined, canonical: canonicalize(request), redacted: request };
}

/** Turns a stored body into the bytes to send. */
export type WireEncoder = (body: StoredBody | undefined) => Promise<Buffer>;

/**
 * A `wireBytes` that remembers its answer per stored body, so a server replaying the same recorded
 * response many times serialises (and re-compresses) it once. Bodies rewritten per request (the
 * timeline's count changes) are new objects and simply miss the cache.
 */
export function cachedWireBytes(): WireEncoder {
  const cache = new WeakMap<StoredBody, Promise<Buffer>>();
  return (body) => {
    if (!body) return wireBytes(body);
    let bytes = cache.get(body);
    if (!bytes) {
      bytes = wireBytes(body);
      cache.set(body, bytes);
    }
    return bytes;
  };
}

/**
 * Writes a stored response: its status and headers, a fresh `content-length`, and the body restored byte
 * for byte (re-compressed when it was recorded compressed). `HEAD` gets no body.
 */
export async function sendStored(
  res: ServerResponse,
  method: string,
  response: StoredResponse,
  extraHeaders: Record<string, string> = {},
  encode: WireEncoder = wireBytes,
): Promise<void> {
  const bytes = await encode(response.body);
  const headers: Record<string, string | string[] | number> = { ...response.headers, ...extraHeaders };
  headers["content-length"] = bytes.length;
  res.writeHead(response.status, headers);
  res.end(method === "HEAD" ? undefined : bytes);
}
