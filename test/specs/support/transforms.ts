/** Rewrites a real provider may legally apply to its JSON bodies: unknown fields, other date offsets. */

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{1,7})(Z|[+-]\d{2}:\d{2})$/;

/** The same instant written at +02:00 with 7 fractional digits (`2024-10-21T17:04:55.3020839+02:00`). */
export function reoffset(text: string): string {
  const match = TIMESTAMP.exec(text);
  if (!match) return text;
  const [, seconds = "", fraction = "", offset = "Z"] = match;
  const ms = Date.parse(`${seconds}${offset === "Z" ? "Z" : offset}`);
  if (Number.isNaN(ms)) return text;
  const local = new Date(ms + 2 * 3_600_000).toISOString().slice(0, 19);
  return `${local}.${fraction.padEnd(7, "0")}+02:00`;
}

/** Walks a JSON value, rewriting every timestamp string. */
export function reoffsetDates(value: unknown): unknown {
  if (typeof value === "string") return reoffset(value);
  if (Array.isArray(value)) return value.map(reoffsetDates);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reoffsetDates(v)]));
  }
  return value;
}

/** Adds unknown fields to every object (a tolerant reader ignores them). */
export function addUnknownFields(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => addUnknownFields(v, depth + 1));
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) copy[k] = addUnknownFields(v, depth + 1);
    copy.xAssopayUnknown = depth === 0 ? { nested: [1, "two", null], note: "added by the proxy" } : "extra";
    return copy;
  }
  return value;
}
