/**
 * Secrets found by a well-kept ruleset, secretlint's recommended preset, in what the recorder is about to
 * write: before an exchange is redacted, its texts (start lines, headers, and text bodies up to
 * {@link RULESET_TEXT_LIMIT}) are scanned, and every secret found is taught to the secret book, which
 * replaces it wherever it appears: in a header no name marks as secret, in a text body, in a JSON value,
 * in later exchanges. The formats of `core/secrets/formats.ts` still run on every text, whatever its size.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { SECRET_FORMATS } from "../../core/secrets/formats.js";
import { utf8Text } from "../cassette/body.js";
import type { StoredBody, StoredHeaders } from "../cassette/format.js";
import { keyName } from "./named-pairs.js";
import type { Redactor } from "./redactor.js";

/**
 * Texts longer than this are left to the formats (`core/secrets/formats.ts`) alone: the preset costs 4–6
 * ms per MB, which a 1 MB export would pay on every exchange (see docs/benchmarks.md, "Redaction").
 */
export const RULESET_TEXT_LIMIT = 256 * 1024;

const CONFIG = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] };

/**
 * secretlint marks every step of every call on the process's performance timeline and keeps each mark
 * in an array it never empties, so each call grows the timeline and the next call's measures search it:
 * 1.4 ms per call after 200 calls, 10.8 ms after 1,000. A recorder calls it for every exchange, so its
 * marks go nowhere. (The profiler is the library's own singleton; nothing of ours reads it.)
 */
const SILENT_TIMELINE = { mark(): void {}, measure(): void {} };

function silenceProfiler(): void {
  const profiler = secretLintProfiler as unknown as { perf: unknown };
  if (profiler.perf !== SILENT_TIMELINE) profiler.perf = SILENT_TIMELINE;
}

/**
 * The secret a finding names, as it sits in the text. A rule reports its finding's text in `data` (the
 * key, the token, or a whole URL for a credential in one); its range is not always the secret's (the AWS
 * rule's is off by the key name). A URL's secret is its password: the rest of it must stay readable.
 */
function secretsOf(text: string, data: unknown, range: readonly [number, number]): string[] {
  const values =
    data !== null && typeof data === "object"
      ? Object.values(data).filter((v): v is string => typeof v === "string" && v !== "" && text.includes(v))
      : [];
  if (values.length === 0) values.push(text.slice(range[0], range[1]));
  return values.map((value) => urlPassword(value) ?? value);
}

/** The table's shape of a URL's password (`scheme://user:password@host`), the one reader of it. */
const URL_PASSWORD = SECRET_FORMATS.find((format) => format.id === "url-password");

/** The password of the first credential URL in `value`, if it holds one. */
function urlPassword(value: string): string | undefined {
  if (URL_PASSWORD === undefined) return undefined;
  for (const found of value.matchAll(URL_PASSWORD.pattern)) return found[URL_PASSWORD.secret];
  return undefined;
}

/**
 * Every secret the recommended preset finds in `text`, as written there (and, where it was escaped
 * inside a JSON string, as read from it). Texts over {@link RULESET_TEXT_LIMIT} are not scanned.
 *
 * @example
 * const found = await rulesetSecrets(`x-deploy: ghp_${"a1B2c3".repeat(6)}`);
 * // → ["ghp_a1B2c3…"]
 */
export async function rulesetSecrets(text: string): Promise<string[]> {
  if (text.length === 0 || text.length > RULESET_TEXT_LIMIT) return [];
  silenceProfiler();
  const result = await lintSource({
    source: { filePath: "/exchange.txt", content: text, contentType: "text" },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const found = new Set<string>();
  for (const message of result.messages) {
    for (const secret of secretsOf(text, message.data, message.range)) {
      // As a JSON string holds it once read, too (`\n` in a PEM block inside JSON).
      found.add(secret).add(keyName(secret));
    }
  }
  return [...found];
}

/** A message as the scan reads it: its first line, its headers, and its body (bytes, or a stored form). */
export interface ScannedMessage {
  readonly line: string;
  readonly headers: StoredHeaders;
  readonly body: { readonly wire: Buffer } | { readonly stored: StoredBody | undefined };
}

function headerLines(line: string, headers: StoredHeaders): string {
  const lines = [line];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return lines.join("\n");
}

/** A body's text, or undefined for bytes that are not UTF-8 text or a body over the ruleset's limit. */
function bodyText(body: ScannedMessage["body"]): string | undefined {
  if ("wire" in body) {
    const { wire } = body;
    if (wire.length === 0 || wire.length > RULESET_TEXT_LIMIT) return undefined;
    return utf8Text(wire);
  }
  const stored = body.stored;
  if (stored === undefined || "base64" in stored) return undefined;
  const text = "text" in stored ? stored.text : JSON.stringify(stored.json);
  return text.length > RULESET_TEXT_LIMIT ? undefined : text;
}

/**
 * The strings of a JSON text that read differently from how they are written (`\"`, `\n`, `\u…`
 * inside them): the ruleset reads `KEY=\"…\"` as written, so these are scanned as read too.
 */
function escapedStrings(text: string): string[] {
  const first = text.trimStart().charCodeAt(0);
  if (!text.includes("\\") || (first !== 0x7b && first !== 0x5b)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (/["\\\n\r\t\u2028\u2029]|[^\x20-\x7e]/.test(value)) found.push(value);
    } else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) walk(item);
    }
  };
  walk(parsed);
  return found;
}

/**
 * The texts of `messages`, packed into as few scans as the limit allows (a call costs about 40 µs
 * whatever its size). Parts are separated by a blank line, which no secret format spans.
 */
export function scanTexts(messages: readonly ScannedMessage[]): string[] {
  const parts: string[] = [];
  for (const m of messages) {
    parts.push(headerLines(m.line, m.headers));
    const body = bodyText(m.body);
    if (body !== undefined) parts.push(body, ...escapedStrings(body));
  }
  const scans: string[] = [];
  let current = "";
  for (const part of parts) {
    if (current !== "" && current.length + part.length + 2 > RULESET_TEXT_LIMIT) {
      scans.push(current);
      current = "";
    }
    current = current === "" ? part : `${current}\n\n${part}`;
  }
  if (current !== "") scans.push(current);
  return scans;
}

/**
 * Scans `messages` with the ruleset and teaches the book each secret found (learning recorders only),
 * so that the redaction that follows replaces it. Resolves with the count of secrets found.
 */
export async function learnFromRuleset(messages: readonly ScannedMessage[], r: Redactor): Promise<number> {
  let found = 0;
  for (const text of scanTexts(messages)) {
    for (const secret of await rulesetSecrets(text)) {
      r.secrets.redact(secret);
      found++;
    }
  }
  return found;
}
