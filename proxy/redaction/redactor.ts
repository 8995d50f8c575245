import { FieldClassifier } from "./fields.js";
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
 * Free text as it may be written: secrets of a recognised shape (JWTs, bearer credentials, card
 * numbers, IBANs; e-mails with `pii`) replaced, then every secret met so far. The one scrub every path
 * uses for text no name speaks for.
 */
export function scrubText(text: string, r: Redactor): string {
  const fakeEmail = r.pii ? (email: string) => fakePii(email, "email", r.salt) : undefined;
  return r.secrets.scrub(redactPatterns(text, (secret) => r.secrets.redact(secret), fakeEmail));
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
      return scrubText(value, r);
  }
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
