import { asFieldName, keyName, NAME_MEMBER, VALUE_MEMBER } from "./named-pairs.js";
import { fieldJson, isSensitiveField, type Redactor, scrubText } from "./redactor.js";
import { type Span, spliceSpans } from "./spans.js";

/** A key: a JSON string (escapes allowed) followed by `:`. */
const KEY = /"((?:[^"\\\n]|\\.)*)"\s*:\s*/g;

/** The end of the string whose opening quote is at `i` (after its closing quote), or -1. */
function stringEnd(text: string, i: number): number {
  for (let k = i + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x5c) k++;
    else if (c === 0x22) return k + 1;
  }
  return -1;
}

/** The end of the JSON value that starts at `i` (any type; lenient about what it holds), or -1. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === 0x22) return stringEnd(text, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let k = i; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x22) {
        const end = stringEnd(text, k);
        if (end < 0) return -1;
        k = end - 1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return k + 1;
      }
    }
    return -1;
  }
  let k = i;
  while (k < text.length && !/[\s,}\]]/.test(text.charAt(k))) k++;
  return k > i ? k : -1;
}

/** Whether the value at `i` is a string that starts like a JSON object or array (`"{`, `"[`). */
function holdsJson(text: string, i: number): boolean {
  const next = text.charCodeAt(i + 1);
  return text.charCodeAt(i) === 0x22 && (next === 0x7b || next === 0x5b);
}

/** A JSON value's text parsed, or the text itself where it does not parse. */
function parsedOrRaw(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The values of the flat pair objects (no object or array inside) whose name is sensitive
 * (`{"name": "DB_PASSWORD", "value": …}`, `named-pairs.ts`): their spans, redacted as under that name.
 */
function namedPairSpans(text: string, r: Redactor): Span[] {
  const spans: Span[] = [];
  const member = new RegExp(NAME_MEMBER.source, "gi");
  for (let found = member.exec(text); found; found = member.exec(text)) {
    const name = asFieldName(keyName(found[1] ?? ""));
    if (!isSensitiveField(name, r)) continue;
    const open = text.lastIndexOf("{", found.index);
    const close = text.indexOf("}", found.index + found[0].length);
    if (open < 0 || close < 0 || /[{[]/.test(text.slice(open + 1, close))) continue;
    const value = new RegExp(VALUE_MEMBER.source, "gi");
    value.lastIndex = open;
    const at = value.exec(text);
    if (!at || at.index > close) continue;
    const start = at.index + at[0].length;
    const end = valueEnd(text, start);
    if (end < 0 || end > close) continue;
    const raw = text.slice(start, end);
    const replaced = JSON.stringify(fieldJson(name, parsedOrRaw(raw), r));
    if (replaced !== raw) spans.push({ start, end, value: replaced });
  }
  return spans;
}

/**
 * Redacts JSON kept as text (too large to store as a map, not restorable byte for byte, or sent with a
 * text type): the value of every secret field, whatever its type (string, number, boolean, object,
 * array: every leaf) and however its key is written (escapes included), becomes a placeholder in place
 * (personal fields fakes); a string holding JSON is redacted as JSON; every other byte stays, and the text between is scrubbed. It does not need
 * the text to be valid JSON: it finds keys (a string followed by `:`) where the key filter of the field
 * lists, or an escape, says one may be sensitive.
 */
export function redactJsonText(text: string, r: Redactor): string {
  if (!r.fields.mayKey(text, r.pii) && !text.includes("\\")) return scrubText(text, r);
  const spans: Span[] = [];
  const key = new RegExp(KEY.source, "g");
  for (let found = key.exec(text); found; found = key.exec(text)) {
    const name = keyName(found[1] ?? "");
    const start = found.index + found[0].length;
    const sensitive = isSensitiveField(name, r);
    // A string holding JSON (`"payload":"{\"password\":…}"`) is redacted as JSON, whatever its key.
    if (!sensitive && !holdsJson(text, start)) continue;
    const end = valueEnd(text, start);
    if (end < 0) continue;
    const raw = text.slice(start, end);
    const value = parsedOrRaw(raw);
    const replaced = JSON.stringify(fieldJson(name, value, r));
    if (replaced !== raw && (sensitive || replaced !== JSON.stringify(value))) {
      spans.push({ start, end, value: replaced });
    }
    key.lastIndex = end;
  }
  return spliceSpans(text, [...spans, ...namedPairSpans(text, r)], (part) => scrubText(part, r));
}
