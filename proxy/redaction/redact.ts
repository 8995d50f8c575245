import { isFormType, isJsonType } from "../cassette/body.js";
import type {
  StoredBody,
  StoredHeaders,
  StoredQuery,
  StoredRequest,
  StoredResponse,
} from "../cassette/format.js";
import { redactJsonText } from "./json-text.js";
import { fieldValue, type Redactor } from "./redactor.js";

export { createRedactor, type Redactor } from "./redactor.js";

/** Headers whose whole value is a credential. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-ha-signature",
]);

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

function cookiePairs(value: string, separator: string, r: Redactor): string {
  return value
    .split(separator)
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? pair : `${pair.slice(0, eq + 1)}${r.secrets.redact(pair.slice(eq + 1))}`;
    })
    .join(separator);
}

function setCookie(value: string, r: Redactor): string {
  const semi = value.indexOf(";");
  const first = semi < 0 ? value : value.slice(0, semi);
  return cookiePairs(first, "; ", r) + (semi < 0 ? "" : value.slice(semi));
}

function headerValue(name: string, value: string, r: Redactor): string {
  if (name === "authorization" || name === "proxy-authorization") return authorization(value, r);
  if (name === "cookie") return cookiePairs(value, "; ", r);
  if (name === "set-cookie") return setCookie(value, r);
  if (CREDENTIAL_HEADERS.has(name) || r.fields.kind(name) === "secret") return r.secrets.redact(value);
  return r.secrets.scrub(value);
}

/**
 * Credentials in headers become placeholders (`authorization`, cookies, the credential headers, and any
 * header named like a secret field: `api-key`, `client-secret`); other values are scrubbed of known secrets.
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

/** Secret and personal query parameters are replaced; the rest is scrubbed. */
export function redactQuery(query: StoredQuery, r: Redactor): StoredQuery {
  const out: StoredQuery = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] = Array.isArray(value) ? value.map((v) => fieldValue(name, v, r)) : fieldValue(name, value, r);
  }
  return out;
}

/** Redacts what sits under `key` (or at the top when undefined); objects and arrays are changed in place. */
function walk(value: unknown, r: Redactor, key: string | undefined): unknown {
  if (typeof value === "string")
    return key === undefined ? r.secrets.scrub(value) : fieldValue(key, value, r);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === "object") walk(item, r, key);
      else if (typeof item === "string") value[i] = walk(item, r, key);
    }
    return value;
  }
  const map = value as Record<string, unknown>;
  for (const k of Object.keys(map)) {
    if (k === "__proto__") continue;
    const v = map[k];
    if (typeof v === "string") {
      const replaced = fieldValue(k, v, r);
      if (replaced !== v) map[k] = replaced;
    } else if (v !== null && typeof v === "object") {
      walk(v, r, k);
    }
  }
  return map;
}

/**
 * A JSON value with secret fields replaced by placeholders, personal fields by fakes and every string
 * scrubbed of known secrets. Objects and arrays are changed in place: pass a value of your own (fresh
 * from `JSON.parse`).
 */
export function redactJson(value: unknown, r: Redactor): unknown {
  return walk(value, r, undefined);
}

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** `a=1&client_secret=…`: named secrets and personal fields replaced, other bytes kept as they were. */
export function redactFormText(text: string, r: Redactor): string {
  return text
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return r.secrets.scrub(pair);
      const name = decodeFormComponent(pair.slice(0, eq));
      const raw = pair.slice(eq + 1);
      const value = decodeFormComponent(raw);
      const replaced = fieldValue(name, value, r);
      if (replaced === value) return `${pair.slice(0, eq + 1)}${r.secrets.scrub(raw)}`;
      return `${pair.slice(0, eq + 1)}${encodeURIComponent(replaced).replace(/%3C/g, "<").replace(/%3E/g, ">").replace(/%3A/g, ":")}`;
    })
    .join("&");
}

/** A stored body with its secrets (and personal data) replaced. Binary bodies are left as they are. */
export function redactBody(body: StoredBody | undefined, contentType: string | undefined, r: Redactor) {
  if (!body) return body;
  if ("json" in body) return { ...body, json: redactJson(body.json, r) };
  if ("text" in body) {
    return {
      ...body,
      text: isFormType(contentType)
        ? redactFormText(body.text, r)
        : isJsonType(contentType)
          ? redactJsonText(body.text, r)
          : r.secrets.scrub(body.text),
    };
  }
  return body;
}

function contentTypeOf(headers: StoredHeaders): string | undefined {
  const value = headers["content-type"];
  return Array.isArray(value) ? value[0] : value;
}

/** A request as it may be written: path, query, headers and body redacted. */
export function redactRequest(request: StoredRequest, r: Redactor): StoredRequest {
  const headers = redactHeaders(request.headers, r);
  const out = { method: request.method, path: r.secrets.scrub(request.path) } as StoredRequest;
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
