import { isCredentialHeader } from "../../core/secrets/names.js";
import type {
  StoredBody,
  StoredHeaders,
  StoredQuery,
  StoredRequest,
  StoredResponse,
} from "../cassette/format.js";
import { firstHeader } from "../http/message.js";
import { multipartBoundary, redactMultipart } from "./multipart.js";
import { formValue, type Redactor, redactJson, scrubText } from "./redactor.js";
import { redactText } from "./text-body.js";
import { redactLinks, redactUrl } from "./url.js";

export { createRedactor, type Redactor, redactJson } from "./redactor.js";

/** Headers that hold one URL. */
const URL_HEADERS: ReadonlySet<string> = new Set(["location", "content-location", "referer", "refresh"]);

function authorization(value: string, r: Redactor): string {
  const space = value.indexOf(" ");
  if (space < 0) return r.secrets.redact(value);
  const scheme = value.slice(0, space);
  const credentials = value.slice(space + 1).trim();
  if (scheme.toLowerCase() === "basic") {
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon >= 0) r.secrets.redact(decoded.slice(colon + 1));
  }
  return `${scheme} ${r.secrets.redact(credentials)}`;
}

/** A `Cookie` header: every cookie's value replaced. */
function cookies(value: string, r: Redactor): string {
  return value
    .split("; ")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? pair : `${pair.slice(0, eq + 1)}${r.secrets.redact(pair.slice(eq + 1))}`;
    })
    .join("; ");
}

/** The attributes of a `Set-Cookie` (RFC 6265), whose values are kept; every other pair is a cookie. */
const COOKIE_ATTRIBUTES: ReadonlySet<string> = new Set([
  "path",
  "domain",
  "expires",
  "max-age",
  "samesite",
  "priority",
  "secure",
  "httponly",
  "partitioned",
]);

/**
 * Every cookie of a `Set-Cookie`, the first and any other pair in the same value (`a=1; Path=/; b=2`, or
 * cookies joined by commas), gets its value replaced; attributes (`Path`, `Expires`, …) are kept.
 */
function setCookie(value: string, r: Redactor): string {
  return value.replace(
    /(^|[;,])(\s*)([^=;,\s]+)=([^;,]*)/g,
    (found, sep: string, space: string, name: string, v: string) =>
      COOKIE_ATTRIBUTES.has(name.toLowerCase()) ? found : `${sep}${space}${name}=${r.secrets.redact(v)}`,
  );
}

/**
 * A header's value by the header's name (in lower case): `authorization`, cookies, URLs and links each
 * their own way; a credential when named like a secret field (`*-token`, `*-secret`, `*-password`,
 * `x-api-key`, `private-token`) or ending in `-key` (`x-goog-api-key`, `ocp-apim-subscription-key`); else
 * scrubbed as text.
 */
function headerValue(name: string, value: string, r: Redactor): string {
  if (name === "authorization" || name === "proxy-authorization") return authorization(value, r);
  if (name === "cookie") return cookies(value, r);
  if (name === "set-cookie") return setCookie(value, r);
  if (URL_HEADERS.has(name)) return redactUrl(value, r);
  if (name === "link") return redactLinks(value, r);
  if (isCredentialHeader(name, (n) => r.fields.kind(n) === "secret")) return r.secrets.redact(value);
  return scrubText(value, r);
}

/**
 * Headers as they may be written: credentials replaced by placeholders (see `headerValue`), the
 * query and fragment of `Location`, `Link`, `Referer` redacted, every other value scrubbed.
 */
export function redactHeaders(headers: StoredHeaders, r: Redactor): StoredHeaders {
  const out: StoredHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value)
      ? value.map((v) => headerValue(name, v, r))
      : headerValue(name, value, r);
  }
  return out;
}

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

/** A request as it may be written: path, query, headers and body redacted. */
export function redactRequest(request: StoredRequest, r: Redactor): StoredRequest {
  const headers = redactHeaders(request.headers, r);
  const out = { method: request.method, path: scrubText(request.path, r) } as StoredRequest;
  if (request.query) out.query = redactQuery(request.query, r);
  out.headers = headers;
  const body = redactBody(request.body, firstHeader(request.headers, "content-type"), r);
  if (body) out.body = body;
  return out;
}

/** A response as it may be written. */
export function redactResponse(response: StoredResponse, r: Redactor): StoredResponse {
  const out: StoredResponse = { status: response.status, headers: redactHeaders(response.headers, r) };
  const body = redactBody(response.body, firstHeader(response.headers, "content-type"), r);
  if (body) out.body = body;
  return out;
}
