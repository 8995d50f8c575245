/**
 * The recorder's use of the ruleset (`core/secrets/ruleset.ts`): before an exchange is redacted, its
 * texts are scanned, and every secret found is taught to the secret book, which replaces it wherever it
 * appears: in a header no name marks as secret, in a text body, in a JSON value, in later exchanges.
 */
import { RULESET_TEXT_LIMIT, rulesetSecrets } from "../../core/secrets/ruleset.js";
import { utf8Text } from "../cassette/body.js";
import type { StoredBody, StoredHeaders } from "../cassette/format.js";
import type { Redactor } from "./redactor.js";

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
