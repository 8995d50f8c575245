import { isJsonType } from "../cassette/body.js";
import type { StoredHeaders } from "../cassette/format.js";
import { firstHeader } from "../http/message.js";
import type { HeldResponse } from "./held.js";

/** Response headers whose URLs are rewritten (bodies are rewritten when they are text). */
const URL_HEADERS = ["location", "content-location", "link"] as const;

const TEXT_TYPE = /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The origins a cassette's responses point back to: the upstream's own, and, when its host has a parent
 * domain (`api.helloasso-sandbox.com`), the https origins of that domain's other hosts
 * (`www.helloasso-sandbox.com`, where checkout redirect URLs lead).
 */
export function recordedOrigins(upstream: string): string[] {
  const url = new URL(upstream);
  const labels = url.hostname.split(".");
  const isName = labels.length >= 3 && !/^\d+$/.test(labels[labels.length - 1] ?? "");
  return isName ? [url.origin, `https://*.${labels.slice(1).join(".")}`] : [url.origin];
}

/** Builds the pattern for a set of origins: each as written and JSON-escaped (`https:\/\/`), whole origins only. */
function originPattern(origins: readonly string[]): RegExp | undefined {
  const alternatives = origins.map((origin) => {
    const [scheme, rest = ""] = origin.split("://");
    const host = escapeRegex(rest).replace(/^\\\*\\\./, "[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.");
    return `${escapeRegex(scheme ?? "")}:(?:\\/\\/|\\\\/\\\\/)${host}`;
  });
  if (alternatives.length === 0) return undefined;
  // Not followed by more of a host name or a port: https://api.example.com.evil is left alone.
  return new RegExp(`(?:${alternatives.join("|")})(?![A-Za-z0-9.:-])`, "g");
}

/** Replaces recorded origins in text; `\/\/` (JSON-escaped slashes) stays escaped. */
function replaceIn(text: string, pattern: RegExp, to: string): string {
  const escaped = to.replace(/\//g, "\\/");
  return text.replace(pattern, (found) => (found.includes("\\/") ? escaped : to));
}

function isText(headers: StoredHeaders, held: HeldResponse): boolean {
  const type = firstHeader(headers, "content-type");
  return held.json || isJsonType(type) || (type !== undefined && TEXT_TYPE.test(type));
}

/**
 * Rewrites a recorded response so that it points at the replay rather than the recorded service: the
 * recorded origins in a text or JSON body (file URLs, checkout redirect URLs) and in `Location`,
 * `Content-Location` and `Link` headers become `to` (`http://127.0.0.1:PORT`). Keeps one rewritten copy
 * per response and origin, so that the same object is served each time (what the server prepared for it
 * is used again); a response with nothing to rewrite is returned as it is.
 */
export class OriginRewriter {
  private readonly pattern: RegExp | undefined;
  private readonly done = new Map<string, WeakMap<HeldResponse, HeldResponse>>();

  constructor(origins: readonly string[]) {
    this.pattern = originPattern([...new Set(origins)]);
  }

  rewrite(held: HeldResponse, to: string): HeldResponse {
    const pattern = this.pattern;
    if (!pattern) return held;
    let cache = this.done.get(to);
    if (!cache) {
      cache = new WeakMap();
      this.done.set(to, cache);
    }
    const known = cache.get(held);
    if (known) return known;
    let headers: StoredHeaders = held.headers;
    for (const name of URL_HEADERS) {
      const value = headers[name];
      if (value === undefined) continue;
      const next = Array.isArray(value)
        ? value.map((v) => replaceIn(v, pattern, to))
        : replaceIn(value, pattern, to);
      if (JSON.stringify(next) !== JSON.stringify(value)) headers = { ...headers, [name]: next };
    }
    let bytes = held.bytes;
    if (bytes.length > 0 && isText(held.headers, held)) {
      const text = bytes.toString("utf8");
      const next = replaceIn(text, pattern, to);
      if (next !== text) bytes = Buffer.from(next, "utf8");
    }
    const out = bytes === held.bytes && headers === held.headers ? held : { ...held, headers, bytes };
    cache.set(held, out);
    return out;
  }
}
