import type {
  StoredBody,
  StoredHeaders,
  StoredQuery,
  StoredRequest,
  StoredResponse,
} from "../cassette/format.js";
import { redactHeaders } from "./headers.js";
import { multipartBoundary, redactMultipart } from "./multipart.js";
import { formValue, type Redactor, redactJson, scrubText } from "./redactor.js";
import { redactText } from "./text-body.js";

export { redactHeaders } from "./headers.js";
export { createRedactor, type Redactor, redactJson } from "./redactor.js";

/** Secret (`code` and `state` included) and personal query parameters are replaced; the rest is scrubbed. */
export function redactQuery(query: StoredQuery, r: Redactor): StoredQuery {
  const out: StoredQuery = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] = Array.isArray(value) ? value.map((v) => formValue(name, v, r)) : formValue(name, value, r);
  }
  return out;
}

/**
 * A stored body with its secrets (and personal data) replaced: JSON by its fields, text by its type
 * and content (see `redactText`), multipart by its parts; other binary bodies are left as they are.
 */
export function redactBody(body: StoredBody | undefined, contentType: string | undefined, r: Redactor) {
  if (!body) return body;
  if ("json" in body) return { ...body, json: redactJson(body.json, r) };
  if ("text" in body) return { ...body, text: redactText(body.text, contentType, r) };
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) return body;
  const bytes = Buffer.from(body.base64, "base64");
  const redacted = redactMultipart(bytes, boundary, r);
  return redacted === bytes ? body : { ...body, base64: redacted.toString("base64") };
}

function contentTypeOf(headers: StoredHeaders): string | undefined {
  const value = headers["content-type"];
  return Array.isArray(value) ? value[0] : value;
}

/** A request as it may be written: path, query, headers and body redacted. */
export function redactRequest(request: StoredRequest, r: Redactor): StoredRequest {
  const headers = redactHeaders(request.headers, r);
  const out = { method: request.method, path: scrubText(request.path, r) } as StoredRequest;
  if (request.query) out.query = redactQuery(request.query, r);
  out.headers = headers;
  const body = redactBody(request.body, contentTypeOf(request.headers), r);
  if (body) out.body = body;
  return out;
}

/** A response as it may be written. */
export function redactResponse(response: StoredResponse, r: Redactor): StoredResponse {
  const out: StoredResponse = { status: response.status, headers: redactHeaders(response.headers, r) };
  const body = redactBody(response.body, contentTypeOf(response.headers), r);
  if (body) out.body = body;
  return out;
}
