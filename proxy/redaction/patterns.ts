/**
 * Secrets recognised by their shape wherever they appear, named or not: every known format of the one
 * table (`core/secrets/formats.ts`: private keys, GitHub, AWS, Slack, Stripe … tokens, URL passwords,
 * JWTs, bearer credentials), payment card numbers (Luhn-valid) and IBANs (checksum-valid); with
 * `--redact-pii`, e-mail addresses too. Each found value is handed to `replace` (the secret book), so it
 * gets the same stable placeholder as everywhere else.
 */
import { FORMAT_CANDIDATE, redactFormats } from "../../core/secrets/formats.js";

/** 13 to 19 digits, possibly grouped by spaces or dashes, starting as card numbers do (2 to 6). */
const CARD = /(?<![\w-])[2-6](?:[ -]?\d){12,18}(?![\w-])/g;
/** Two letters, two check digits, then 11 to 30 letters or digits, possibly in groups of four. */
const IBAN = /(?<![\w-])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![\w-])/g;
/** An e-mail address (personal data, replaced with `--redact-pii` only). */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/**
 * Necessary conditions for the shapes above (with the formats' own, `FORMAT_CANDIDATE`), tested one by
 * one before the shapes themselves. The recorder's body scan (`scan.ts`) follows the same conditions in
 * its one pass; a test checks the two agree.
 */
const DIGITS_CANDIDATE =
  /\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d[ -]?\d/;
const IBAN_CANDIDATE = /[A-Z][A-Z]\d\d/;

/** Whether `digits` (digits only) pass the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 0x30;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether `iban` (no spaces, upper case) passes the ISO 13616 check (mod 97 = 1). */
export function ibanValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const code = char.charCodeAt(0);
    const value = code >= 0x41 ? code - 0x41 + 10 : code - 0x30;
    rest = (value > 9 ? rest * 100 + value : rest * 10 + value) % 97;
  }
  return rest === 1;
}

/** Whether `text` may hold a value of a recognised shape (no match means none does). */
export function mayHoldPattern(text: string, pii: boolean): boolean {
  return (
    FORMAT_CANDIDATE.test(text) ||
    DIGITS_CANDIDATE.test(text) ||
    IBAN_CANDIDATE.test(text) ||
    (pii && text.includes("@"))
  );
}

/**
 * `text` with every value of a recognised shape replaced by `replace(value)` (e-mails by `fakeEmail` with
 * `pii`). Text without any candidate is returned as it is, at the cost of one regular expression test.
 *
 * @example redactPatterns("card 4111 1111 1111 1111", (s) => "<x>", undefined) // "card <x>"
 */
export function redactPatterns(
  text: string,
  replace: (secret: string) => string,
  fakeEmail: ((email: string) => string) | undefined,
): string {
  if (!mayHoldPattern(text, fakeEmail !== undefined)) return text;
  let out = redactFormats(text, replace);
  // Each shape only where its own candidate is (a token elsewhere in the text says nothing of cards).
  if (DIGITS_CANDIDATE.test(out)) {
    out = out.replace(CARD, (found) => (luhnValid(found.replace(/[ -]/g, "")) ? replace(found) : found));
  }
  if (IBAN_CANDIDATE.test(out)) {
    out = out.replace(IBAN, (found) => (ibanValid(found.replace(/ /g, "")) ? replace(found) : found));
  }
  if (fakeEmail)
    out = out.replace(EMAIL, (found) => (found.endsWith("@example.com") ? found : fakeEmail(found)));
  return out;
}
