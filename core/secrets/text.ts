/**
 * The redactor of what the tool writes for people and for CI (every report, log line and error): the
 * same names (`names.ts`) and shapes (`formats.ts`) the recorder redacts cassettes with, applied to text
 * and to the data a report carries. Secrets become their stable placeholders (`placeholder.ts`), so the
 * same secret reads the same in a report and in a cassette recorded without a salt.
 */
import { redactFormats } from "./formats.js";
import { isSecretName, type NamePlace } from "./names.js";
import { placeholderFor, WHOLE_PLACEHOLDER } from "./placeholder.js";

/** `name=value` in a query, a fragment, a form or a log line (`?client_secret=…&state=…`). */
const PAIR = /(^|[?&#;\s,(])([\w.[\]-]{1,100})([ \t]*=[ \t]*)([^&\s#"'<>;,)]+)/g;

/** `"name": "value"` in JSON written as text (an SDK's body quoted in evidence). */
const JSON_PAIR = /"([^"\\]{1,100})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/** `Name: value` on a line of its own (request headers written out). */
const HEADER_LINE = /^([A-Za-z][\w-]{0,80}):[ \t]*(\S[^\r\n]*)$/gm;

/** Headers that hold a credential though their names do not say so. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-ha-signature",
  "x-hub-signature",
  "x-signature",
]);

function placeholder(value: string): string {
  return value === "" || WHOLE_PLACEHOLDER.test(value) ? value : placeholderFor(value);
}

/** A value already masked by its writer: a short prefix and an ellipsis (`abcdef…`). */
const MASKED = /^[^\s]{0,12}…$/;

/**
 * A credential's value as a report shows it: an authentication scheme is kept (`Bearer <secret:…>`), and
 * so is a value its writer already masked (`Bearer abcdef…`).
 */
function credential(value: string): string {
  const scheme = /^(Bearer|Basic|Digest|Token|Negotiate|HMAC|AWS4-HMAC-SHA256)\s+(\S.*)$/i.exec(value);
  const secret = scheme?.[2] ?? value;
  if (MASKED.test(secret)) return value;
  return scheme ? `${scheme[1]} ${placeholder(secret)}` : placeholder(value);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** Whether a header's value is a credential, by the header's name. */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || lower.endsWith("-key") || isSecretName(lower, "field");
}

/**
 * Text as a report or a log line may show it: secrets of a known shape (URL passwords, tokens, private
 * keys, JWTs, bearer credentials) replaced, the values of secret-named `name=value` pairs, of
 * `"name": "value"` JSON pairs and of credential header lines too.
 *
 * @example redactSecretText("GET /cb?code=abc&state=xyz") // "GET /cb?code=<secret:…>&state=<secret:…>"
 * @example redactSecretText("broker http://ci:pw@broker.example") // "broker http://ci:<secret:…>@broker.example"
 */
export function redactSecretText(text: string): string {
  if (text.length < 4) return text;
  let out = redactFormats(text, placeholder);
  if (out.includes("=")) {
    out = out.replace(PAIR, (found, before: string, name: string, equals: string, value: string) =>
      isSecretName(decoded(name), "form") ? `${before}${name}${equals}${placeholder(value)}` : found,
    );
  }
  if (out.includes('"')) {
    out = out.replace(JSON_PAIR, (found, name: string, colon: string, value: string) =>
      isSecretName(name, "field") ? `"${name}"${colon}"${placeholder(value)}"` : found,
    );
  }
  if (out.includes(":")) {
    out = out.replace(HEADER_LINE, (found, name: string, value: string) =>
      isCredentialHeader(name) ? `${name}: ${credential(value)}` : found,
    );
  }
  return out;
}

/**
 * A copy of `value` (a report, its evidence, a verb's JSON details) with every string redacted as text
 * and, under a secret-named key, every string replaced by its placeholder (numbers and booleans are
 * kept: a report's counts keep their type). `place` says how keys are read:
 * a report's keys are field names (`state` and `code` are data there).
 */
export function redactSecretData<T>(value: T, place: NamePlace = "field"): T {
  return copy(value, place, false, new WeakSet()) as T;
}

function copy(value: unknown, place: NamePlace, secret: boolean, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return secret ? credential(value) : redactSecretText(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => copy(item, place, secret, seen));
  if (value instanceof Date) return value;
  if (value instanceof URL) return copy(value.href, place, secret, seen);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const named = secret || isSecretName(key, place) || isCredentialHeader(key);
    out[key] = copy(item, place, named, seen);
  }
  return out;
}
