import { redactPairs } from "../../core/secrets/pairs.js";
import { FieldClassifier } from "./fields.js";
import { namedPair } from "./named-pairs.js";
import { redactPatterns } from "./patterns.js";
import { fakePii } from "./pii.js";
import { SecretBook } from "./secrets.js";

/** What to replace: secrets always (through the book), personal data when `pii` is set. */
export interface Redactor {
  readonly secrets: SecretBook;
  readonly pii: boolean;
  readonly salt: string | undefined;
  readonly fields: FieldClassifier;
}

/**
 * A redactor. `learn: true` (recording) remembers every secret it replaces, to replace it wherever
 * else it appears; replay (`learn: false`) only replaces what is named or recognised by its shape.
 * `fields` classifies field names (by default from the project's own lists).
 */
export function createRedactor(
  salt: string | undefined,
  pii: boolean,
  learn: boolean,
  fields: FieldClassifier = new FieldClassifier(),
): Redactor {
  return { secrets: new SecretBook(salt, learn), pii, salt, fields };
}

/** Whether values under a field named `key` must be replaced: secrets, and personal data with `pii`. */
export function isSensitiveField(key: string, r: Redactor): boolean {
  return r.fields.sensitive(key, r.pii);
}

/**
 * Free text as it may be written: the values of secret-named pairs and secrets of a recognised shape
 * (JWTs, bearer credentials, card numbers, IBANs; e-mails with `pii`) replaced, then every secret met so
 * far. The one scrub every path uses for text no name speaks for.
 */
export function scrubText(text: string, r: Redactor): string {
  const fakeEmail = r.pii ? (email: string) => fakePii(email, "email", r.salt) : undefined;
  return r.secrets.scrub(
    redactPatterns(
      redactPairs(text, r.fields, (value, name) => r.secrets.redact(value, name)),
      (secret) => r.secrets.redact(secret),
      fakeEmail,
    ),
  );
}

/** The value to write for a field named `name`: a placeholder, a fake, or the value scrubbed. */
export function fieldValue(name: string, value: string, r: Redactor): string {
  const kind = r.fields.kind(name);
  switch (kind) {
    case "secret":
      return r.secrets.redact(value, name);
    case "name":
    case "email":
    case "phone":
      if (r.pii && !(kind === "email" && value.endsWith("@example.com"))) return fakePii(value, kind, r.salt);
      return scrubText(value, r);
    case "plain":
      return nestedJson(value, r) ?? scrubText(value, r);
  }
}

/** Strings longer than this are not parsed as JSON held in a string (they are scrubbed as text). */
const NESTED_JSON_LIMIT = 256 * 1024;

/**
 * A string that holds a JSON object or array (`"payload": "{\"password\":…}"`), redacted as JSON and
 * serialised again; undefined when it holds none, or nothing in it changed (the string is then scrubbed
 * as it was, its spacing kept).
 */
function nestedJson(value: string, r: Redactor): string | undefined {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const object = first === 0x7b && last === 0x7d;
  if (!(object || (first === 0x5b && last === 0x5d)) || value.length > NESTED_JSON_LIMIT) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  const before = JSON.stringify(parsed);
  const after = JSON.stringify(redactJson(parsed, r));
  return after === before ? undefined : after;
}

/**
 * The value to write for a query, fragment, form or multipart field named `name`: as {@link fieldValue},
 * and a placeholder for the names only forms make secret (`code`, `state`).
 */
export function formValue(name: string, value: string, r: Redactor): string {
  return r.fields.formKind(name) === "secret" ? r.secrets.redact(value, name) : fieldValue(name, value, r);
}

/**
 * What to write for a JSON value of any type under a field named `name`: strings as `fieldValue` says;
 * under a secret name, numbers and booleans become placeholders too, and objects and arrays have every
 * leaf replaced (changed in place); under a personal name, numbers become fakes of the same digits.
 */
export function fieldJson(name: string, value: unknown, r: Redactor): unknown {
  if (typeof value === "string") return fieldValue(name, value, r);
  const kind = r.fields.kind(name);
  if (kind === "secret") return everyLeaf(value, name, r);
  if (typeof value === "number" && r.pii && kind === "phone") {
    return Number(fakePii(String(value), kind, r.salt));
  }
  return value;
}

/** `value` with every string, number and boolean leaf replaced by its placeholder (`null` kept). */
function everyLeaf(value: unknown, name: string, r: Redactor): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "string") return r.secrets.redact(value, name);
  if (typeof value === "number" || typeof value === "boolean") return r.secrets.redact(String(value), name);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = everyLeaf(value[i], name, r);
    return value;
  }
  if (typeof value === "object") {
    const map = value as Record<string, unknown>;
    for (const k of Object.keys(map)) if (k !== "__proto__") map[k] = everyLeaf(map[k], name, r);
  }
  return value;
}

/** Redacts what sits under `key` (or at the top when undefined); objects and arrays are changed in place. */
function walk(value: unknown, r: Redactor, key: string | undefined): unknown {
  if (typeof value === "string") return key === undefined ? scrubText(value, r) : fieldValue(key, value, r);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = walk(value[i], r, key);
    return value;
  }
  const map = value as Record<string, unknown>;
  // A pair object (`{"name": "DB_PASSWORD", "value": …}`): its value, redacted as under its name.
  const pair = namedPair(map, (name) => isSensitiveField(name, r));
  if (pair) map[pair.valueKey] = fieldJson(pair.name, map[pair.valueKey], r);
  for (const k of Object.keys(map)) {
    if (k === "__proto__") continue;
    const v = map[k];
    if (typeof v === "string") {
      const replaced = fieldValue(k, v, r);
      if (replaced !== v) map[k] = replaced;
    } else if (r.fields.kind(k) !== "plain") {
      map[k] = fieldJson(k, v, r);
    } else if (v !== null && typeof v === "object") {
      walk(v, r, k);
    }
  }
  return map;
}

/**
 * A JSON value with secret fields replaced by placeholders (whatever their type: every leaf of an
 * object or array), personal fields by fakes and every string scrubbed of secrets; a string that holds
 * JSON is redacted as JSON. Objects and arrays are changed in place: pass a value of your own (fresh from
 * `JSON.parse`).
 */
export function redactJson(value: unknown, r: Redactor): unknown {
  return walk(value, r, undefined);
}
