/**
 * The redactor of what the tool writes for people and for CI (every report, log line and error): the
 * same names (`names.ts`) and shapes (`formats.ts`) the recorder redacts cassettes with, applied to text
 * and to the data a report carries. Secrets become their stable placeholders (`placeholder.ts`), so the
 * same secret reads the same in a report and in a cassette recorded without a salt.
 */
import { redactFormats } from "./formats.js";
import { isCredentialHeader, isSecretName, type NamePlace } from "./names.js";
import { AUTH_SCHEMES, type PairNames, redactPairs } from "./pairs.js";
import { placeholderFor, WHOLE_PLACEHOLDER } from "./placeholder.js";

/** Pairs' names as a report reads them: the project's lists, as the recorder reads free text. */
const LISTED_NAMES: PairNames = { isSecret: isSecretName, mayName: () => true };

function placeholder(value: string): string {
  return value === "" || WHOLE_PLACEHOLDER.test(value) ? value : placeholderFor(value);
}

const SCHEME = new RegExp(`^(${AUTH_SCHEMES.join("|")})\\s+(\\S.*)$`, "i");

/** A value already masked by its writer: a short prefix and an ellipsis (`abcdef…`). */
const MASKED = /^[^\s]{0,12}…$/;

/**
 * A credential's value as a report shows it: an authentication scheme is kept (`Bearer <secret:…>`), and
 * so is a value its writer already masked (`Bearer abcdef…`).
 */
function credential(value: string): string {
  const scheme = SCHEME.exec(value);
  const secret = scheme?.[2] ?? value;
  if (MASKED.test(secret)) return value;
  return scheme ? `${scheme[1]} ${placeholder(secret)}` : placeholder(value);
}

/**
 * Text as a report or a log line may show it: secrets of a known shape (URL passwords, tokens, private
 * keys, JWTs, bearer credentials) replaced, and the values of secret-named pairs and credential header
 * lines, read by the recorder's one grammar (`pairs.ts`). A value its writer already masked
 * (`Bearer abcdef…`) is kept.
 *
 * @example redactSecretText("GET /cb?code=abc&state=xyz") // "GET /cb?code=<secret:…>&state=<secret:…>"
 * @example redactSecretText("broker http://ci:pw@broker.example") // "broker http://ci:<secret:…>@broker.example"
 */
export function redactSecretText(text: string): string {
  if (text.length < 4) return text;
  const paired = redactPairs(text, LISTED_NAMES, (value) =>
    MASKED.test(value) ? value : placeholder(value),
  );
  return redactFormats(paired, placeholder);
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
