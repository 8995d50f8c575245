/**
 * Ways to write the same JSON value as different bytes. A receiver that verifies the signature over
 * the raw bytes accepts every one; one that re-serialises the parsed JSON fails on some.
 * - `compact`: `JSON.stringify` (what a JavaScript re-serialisation gives back);
 * - `spaced`: spaces around `:` and `,`, line breaks, a trailing newline;
 * - `escaped`: as the service writes (see the `.raw.txt` references): `\/` for `/`, `\u00e9` for `é`;
 * - `reordered`: another key order (every object's keys reversed).
 */
export type RawForm = "compact" | "spaced" | "escaped" | "reordered";

function spaced(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[ ]";
    return `[\r\n${value.map((v) => `${inner}${spaced(v, inner)}`).join(" ,\r\n")}\r\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{ }";
    const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)} :  ${spaced(v, inner)}`);
    return `{\r\n${lines.join(" ,\r\n")}\r\n${indent}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversed(v)]),
    );
  }
  return value;
}

const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

const FORMS: Record<RawForm, (value: unknown) => string> = {
  compact: (value) => JSON.stringify(value),
  spaced: (value) => `${spaced(value, "")}\r\n`,
  // Every `/` in JSON text sits inside a string, and every non-ASCII character too: both may be escaped.
  escaped: (value) =>
    JSON.stringify(value)
      .replace(/\//g, "\\/")
      .replace(/[\u0080-\uffff]/g, escapeChar),
  reordered: (value) => JSON.stringify(reversed(value)),
};

/** The bytes of `value` written in one of the forms. */
export const serialise = (value: unknown, form: RawForm): Buffer => Buffer.from(FORMS[form](value), "utf8");
