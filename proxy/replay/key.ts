import { createHash } from "node:crypto";
import { bodyBytes, isFormType, isJsonType, utf8Text } from "../cassette/body.js";
import type { StoredBody, StoredRequest } from "../cassette/format.js";
import { firstHeader, queryParams } from "../http/message.js";
import { applyBodyRules, type CompiledRules, NO_RULES, ruleValue } from "./match-rules.js";

/** A request body reduced to what matching compares. */
export type CanonicalBody =
  | { kind: "none" }
  | { kind: "json"; value: unknown; text: string }
  | { kind: "form"; pairs: readonly (readonly [string, string])[]; text: string }
  | { kind: "bytes"; length: number; digest: string; preview: string | undefined };

/**
 * A request reduced to what matching compares: method, path (percent-encoding normalised), query
 * (names without case, in any order, repeated names kept, their values in any order) and body (JSON by
 * value, forms as sorted pairs, anything else by bytes). `key` hashes all of it.
 */
export interface CanonicalRequest {
  method: string;
  path: string;
  /** Lower-cased names, sorted, each with its sorted values. */
  query: readonly (readonly [string, readonly string[]])[];
  /** The names as they were written, for messages. */
  queryNames: ReadonlyMap<string, string>;
  body: CanonicalBody;
  /** Headers a `type` or `regex` rule adds to matching (lower-cased names, values as the rules see them). */
  headers: readonly (readonly [string, unknown])[];
  key: string;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** `%7e` and `~` are the same path; `%2F` and `/` are not. */
export function normalizePath(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** JSON text with the keys of every object sorted: equal values give equal texts. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function jsonBody(value: unknown, rules: CompiledRules): CanonicalBody {
  const ruled = rules.body.length > 0 ? applyBodyRules(value, rules) : value;
  return { kind: "json", value: ruled, text: stableJson(ruled) };
}

/** Form pairs with the body rules applied to top-level fields (`body.NAME`). */
function ruledPairs(pairs: [string, string][], rules: CompiledRules): [string, string][] {
  if (rules.body.length === 0) return pairs;
  const out: [string, string][] = [];
  for (const [name, value] of pairs) {
    const rule = rules.body.find(
      (r) => r.segments.length === 1 && (r.segments[0] === name || r.segments[0] === "*"),
    );
    const ruled = rule ? ruleValue(rule, value) : value;
    if (ruled !== undefined) out.push([name, String(ruled)]);
  }
  return out;
}

function canonicalBody(
  body: StoredBody | undefined,
  contentType: string | undefined,
  rules: CompiledRules,
): CanonicalBody {
  if (!body) return { kind: "none" };
  if ("json" in body) return jsonBody(body.json, rules);
  if ("text" in body) {
    if (body.text === "") return { kind: "none" };
    if (isFormType(contentType)) {
      const pairs = ruledPairs([...new URLSearchParams(body.text)], rules).sort((a, b) =>
        a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1,
      );
      return { kind: "form", pairs, text: new URLSearchParams(pairs).toString() };
    }
    if (isJsonType(contentType)) {
      try {
        return jsonBody(JSON.parse(body.text) as unknown, rules);
      } catch {
        // compared as bytes
      }
    }
  }
  const bytes = bodyBytes(body);
  if (bytes.length === 0) return { kind: "none" };
  const text = bytes.length <= 200 ? utf8Text(bytes) : undefined;
  return {
    kind: "bytes",
    length: bytes.length,
    digest: createHash("sha256").update(bytes).digest("hex"),
    preview: text,
  };
}

/** `json:TEXT`, `form:TEXT`, `bytes:DIGEST`, or nothing for no body. */
function bodyKeyText(body: CanonicalBody): string {
  return body.kind === "none" ? "" : `${body.kind}:${body.kind === "bytes" ? body.digest : body.text}`;
}

/** The headers the rules add to matching, each value as its rule sees it. */
function ruledHeaders(request: StoredRequest, rules: CompiledRules): (readonly [string, unknown])[] {
  return rules.headers.map((rule) => {
    const name = rule.segments[0] ?? "";
    const value = firstHeader(request.headers, name);
    return [name, value === undefined ? null : ruleValue(rule, value)] as const;
  });
}

/**
 * Reduces a stored request (already redacted) to its canonical form and key, with the matching rules
 * applied: an ignored field is left out, a `type` or `regex` field compared as its rule says. Without
 * `keyed` the key is left empty (a miss compares the forms field by field and needs no hash).
 */
export function canonicalize(
  request: StoredRequest,
  rules: CompiledRules = NO_RULES,
  keyed = true,
): CanonicalRequest {
  const grouped = new Map<string, string[]>();
  const queryNames = new Map<string, string>();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    const lower = name.toLowerCase();
    const rule = rules.query.get(lower);
    const list = Array.isArray(value) ? value : [value];
    const ruled = rule ? list.map((v) => ruleValue(rule, v)) : list;
    if (ruled.some((v) => v === undefined)) continue;
    if (!queryNames.has(lower)) queryNames.set(lower, name);
    const values = grouped.get(lower) ?? [];
    values.push(...ruled.map(String));
    grouped.set(lower, values);
  }
  const query = [...grouped.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name, values]) => [name, [...values].sort()] as const);
  const method = request.method.toUpperCase();
  const path = normalizePath(request.path);
  const body = canonicalBody(request.body, firstHeader(request.headers, "content-type"), rules);
  const headers = ruledHeaders(request, rules);
  if (!keyed) return { method, path, query, queryNames, body, headers, key: "" };
  const queryText = JSON.stringify(query);
  const headerText = headers.length > 0 ? `\n${JSON.stringify(headers)}` : "";
  const key = createHash("sha256")
    .update(`${method}\n${path}\n${queryText}\n${bodyKeyText(body)}${headerText}`)
    .digest("base64url");
  return { method, path, query, queryNames, body, headers, key };
}

/** `GET /path?a=1` for messages (the query re-encoded from its decoded, redacted values). */
export function describeRequest(request: Pick<StoredRequest, "method" | "path" | "query">): string {
  const params = queryParams(request.query).toString();
  const query = params === "" ? "" : `?${params}`;
  return `${request.method.toUpperCase()} ${request.path}${query}`;
}
