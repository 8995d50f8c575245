/**
 * Secrets found by a well-kept ruleset: secretlint's recommended preset, run over the text the recorder
 * is about to write (a message's start line and headers, and its text body up to
 * {@link RULESET_TEXT_LIMIT}). What it finds is handed to the recorder's secret book, which then replaces
 * it wherever it appears; the formats of `formats.ts` still run on every text, whatever its size.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { SECRET_FORMATS } from "./formats.js";

/**
 * Texts longer than this are left to `formats.ts` alone: the preset costs 4–6 ms per MB, which a
 * 1 MB export would pay on every exchange (see docs/benchmarks.md, "Redaction").
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

/** `value` as a JSON string holds it once read (`\n` in a PEM block inside JSON), when that differs. */
function unescaped(value: string): string | undefined {
  if (!value.includes("\\")) return undefined;
  try {
    const read = JSON.parse(`"${value}"`) as unknown;
    return typeof read === "string" && read !== value ? read : undefined;
  } catch {
    return undefined;
  }
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
      found.add(secret);
      const read = unescaped(secret);
      if (read !== undefined) found.add(read);
    }
  }
  return [...found];
}
