import { FieldClassifier } from "./fields.js";
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
 * else it appears; replay (`learn: false`) only replaces what is named. `fields` classifies field names
 * (by default from the project's own lists).
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

/** The value to write for a field named `name`: a placeholder, a fake, or the value scrubbed. */
export function fieldValue(name: string, value: string, r: Redactor): string {
  const kind = r.fields.kind(name);
  if (kind === "secret") return r.secrets.redact(value, name);
  if (r.pii && kind !== "plain" && !(kind === "email" && value.endsWith("@example.com"))) {
    return fakePii(value, kind, r.salt);
  }
  return r.secrets.scrub(value);
}
