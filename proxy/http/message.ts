import type { IncomingHttpHeaders } from "node:http";
import { endToEndHeaders } from "../../core/http/headers.js";
import type { StoredHeaders, StoredQuery } from "../cassette/format.js";

/**
 * Node's parsed headers as stored: lower-case names; headers that describe one connection or one
 * transfer (hop-by-hop, `content-length`, `host`) left out, since replay sets its own.
 */
export const storedHeaders: (headers: IncomingHttpHeaders) => StoredHeaders = endToEndHeaders;

/** The first value of a stored or parsed header. */
export function firstHeader(headers: StoredHeaders | IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A request target in origin form (`/path?query`), split and decoded. */
export interface RequestTarget {
  /** The path as sent, percent-encoding kept. */
  path: string;
  /** The query as sent, without the `?`. */
  rawQuery: string;
  /** Decoded parameters (form rules: `+` is a space), absent when there is no query. */
  query: StoredQuery | undefined;
}

/** Decoded query parameters; a repeated name becomes a list, in the order sent. */
export function decodeQuery(rawQuery: string): StoredQuery | undefined {
  if (rawQuery === "") return undefined;
  const query: StoredQuery = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const previous = Object.hasOwn(query, name) ? query[name] : undefined;
    const next =
      previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    Object.defineProperty(query, name, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(query).length > 0 ? query : undefined;
}

/** Stored query parameters as URL parameters, repeated names in order (the inverse of {@link decodeQuery}). */
export function queryParams(query: StoredQuery | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  return params;
}

/** Whether a request target is a path (`/…`), not an absolute URL, `//host` or `*`. */
export function isOriginForm(url: string | undefined): url is string {
  return url !== undefined && url.charCodeAt(0) === 0x2f && url.charCodeAt(1) !== 0x2f;
}

/** Splits an origin-form target; anything else (absolute form, `*`) gives undefined. */
export function parseTarget(url: string | undefined): RequestTarget | undefined {
  if (!isOriginForm(url)) return undefined;
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  const rawQuery = mark < 0 ? "" : url.slice(mark + 1);
  return { path, rawQuery, query: decodeQuery(rawQuery) };
}
