import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { storeBody } from "../cassette/body.js";
import type { StoredRequest } from "../cassette/format.js";
import { firstHeader, parseTarget, storedHeaders } from "../http/message.js";

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
