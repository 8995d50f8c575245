import { createHmac } from "node:crypto";
import { normalFieldName } from "../../core/secrets/names.js";

const PII_KEY = "assopay-cassette/1 personal data";
const CONSONANTS = "bcdfghjklmnprstvz";
const VOWELS = "aeiou";

/**
 * The endings of field names that hold personal data, written without case, `_` or `-`, with the kind of
 * each: payer and user first and last names (`firstName`, `payerLastName`), e-mail addresses (`email`,
 * `payerEmail`), phone numbers (`phone`, `mobilePhone`, `phoneNumber`). The classifier and the fast paths' key filter are both computed from it (`fields.ts`).
 */
export const PII_FIELD_ENDINGS: Readonly<Record<string, PiiKind>> = Object.freeze({
  firstname: "name",
  lastname: "name",
  email: "email",
  phone: "phone",
  phonenumber: "phone",
  mobile: "phone",
  telephone: "phone",
});

/** The kinds of personal data replaced by fakes with `--redact-pii`. */
export type PiiKind = "name" | "email" | "phone";

/** Which personal field a name denotes (see {@link PII_FIELD_ENDINGS}). */
export function piiKind(name: string): PiiKind | undefined {
  const key = normalFieldName(name);
  for (const [ending, kind] of Object.entries(PII_FIELD_ENDINGS)) if (key.endsWith(ending)) return kind;
  return undefined;
}

function digits(value: string, salt: string | undefined): Buffer {
  return createHmac("sha256", salt ?? PII_KEY)
    .update(value, "utf8")
    .digest();
}

/** Letters become pronounceable letters of the same case, digits stay digits, the rest stays. */
function reshape(value: string, hash: Buffer, lowerOnly: boolean): string {
  let out = "";
  let position = 0;
  let inWord = 0;
  for (const char of value) {
    const byte = hash[position % hash.length] ?? 0;
    position++;
    if (/\p{L}/u.test(char)) {
      const pool = inWord % 2 === 0 ? CONSONANTS : VOWELS;
      const letter = pool[byte % pool.length] ?? "a";
      const upper = !lowerOnly && char !== char.toLowerCase();
      out += upper ? letter.toUpperCase() : letter;
      inWord++;
    } else if (/\p{N}/u.test(char)) {
      out += String(byte % 10);
      inWord = 0;
    } else {
      out += char;
      inWord = 0;
    }
  }
  return out;
}

/**
 * A stable fake of the same shape: "Jean-Marie" → "Mode-Hejus"; "jean.dupont42@gmail.com" →
 * "moce.mamina55@example.com" (without a salt); "+33 6 12 34 56 78" → "+71 4 …" (digits stay digits). The same value always gives the same fake.
 *
 * @example fakePii("Dupont", "name") // "Sicefo"
 */
export function fakePii(value: string, kind: PiiKind, salt?: string): string {
  if (value === "") return value;
  const hash = digits(value, salt);
  switch (kind) {
    case "name":
    case "phone":
      return reshape(value, hash, false);
    case "email": {
      const at = value.lastIndexOf("@");
      if (at < 0) return reshape(value, hash, true);
      return `${reshape(value.slice(0, at), hash, true)}@example.com`;
    }
  }
}
