import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { storeBody } from "../cassette/body.js";
import type { StoredRequest } from "../cassette/format.js";
import { firstHeader, parseTarget, storedHeaders } from "../http/message.js";
import { type Redactor, redactRequest } from "../redaction/redact.js";
import { type CanonicalRequest, canonicalize } from "./key.js";
import type { ReplayIndex } from "./replay-index.js";

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

/** The result of looking a request up: the interaction's number, if any, and the request's canonical form. */
export interface Lookup {
  entry: number | undefined;
  canonical: CanonicalRequest;
  redacted: StoredRequest;
  /** The request's canonical key under each redaction profile, in the order tried. */
  keys: readonly string[];
}

/**
 * Finds the recorded interaction for a request. The request is redacted the way each cassette was
 * (`profiles`, one at least: secrets always, personal data when the cassette says so) so that a real
 * secret matches its placeholder.
 */
export function lookup(
  index: ReplayIndex,
  profiles: readonly Redactor[],
  request: StoredRequest,
  repeatLast: boolean,
): Lookup {
  // Redaction changes JSON bodies in place: each way of redacting gets its own copy.
  const forms = profiles.map((profile) => {
    const redacted = redactRequest(profiles.length > 1 ? structuredClone(request) : request, profile);
    return { redacted, canonical: canonicalize(redacted, index.rules) };
  });
  const keys = forms.map((form) => form.canonical.key);
  for (const form of forms) {
    const entry = index.take(form.canonical.key, repeatLast);
    if (entry !== undefined) return { entry, ...form, keys };
  }
  return { entry: undefined, ...(forms[0] as (typeof forms)[number]), keys };
}
