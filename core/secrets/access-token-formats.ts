import type { ProviderFormat } from "./provider-formats.js";
import { rep } from "./shape.js";
import { looksRandom } from "./token-shape.js";

const HEX = "0a1b2c3d4e5f6789";

/**
 * Access tokens of payment, messaging and social platforms an association's site is often wired to (a
 * shop's card payments, SMS reminders, a page that posts its events), each from the shape its provider
 * documents. Their prefixes
 * run into the token without a separator, so the token shape (`token-shape.ts`) does not see them.
 */
export const ACCESS_TOKEN_FORMATS: readonly Omit<ProviderFormat, "origin" | "secret">[] = Object.freeze([
  {
    // Square's production access tokens: `EAAA` and 60 more, not inside a base64 run (its sandbox and
    // OAuth prefixes, `sq0atp-` and `sq0csp-`, are `square-token` of provider-formats.ts).
    id: "square-access-token",
    pattern: /(?<![\w+/=-])EAAA[\w-]{60}(?![\w+/=-])/g,
    literals: ["EAA"],
    accept: looksRandom,
    example: `EA${"AA"}${rep("lB3xQ9zK7mW2pV5nR8-", 60)}`,
  },
  {
    // Braintree's gateway access tokens: environment, merchant id and a 32-digit hex key.
    id: "braintree-token",
    pattern: /\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b/g,
    literals: ["access_token$production$", "access_token$sandbox$"],
    example: `access_token$${"production"}$${rep("k7m3p9q1", 16)}$${rep(HEX, 32)}`,
  },
  {
    // Twilio API keys (SMS reminders): `SK` and 32 hex digits, in either case. `SK` is no literal word
    // (any base64 run holds it): it is a checked word (`CHECKED_WORDS`, below).
    id: "twilio-api-key",
    pattern: /(?<![\w])SK[0-9a-fA-F]{32}(?![\w])/g,
    literals: [],
    example: `S${"K"}${rep(HEX, 32)}`,
  },
  {
    // Mailchimp API keys (an association's newsletter): 32 hex digits and the data centre, `-us` and a
    // number.
    id: "mailchimp-api-key",
    pattern: /(?<![\w-])[0-9a-f]{32}-us\d{1,2}(?![\w-])/g,
    literals: [..."123456789"].map((digit) => `-us${digit}`),
    example: `${rep(HEX, 32)}-u${"s"}12`,
  },
  {
    // Okta API tokens (an association's single sign-on): `00` and 40 more of base64url, upper and lower
    // case and digits mixed (a slug or a padded number is not), sent as `Authorization: SSWS <token>`,
    // after a blank, a quote or a pair's `=` (`TOKEN_LEADS`). `00` is no literal word (any number holds
    // it): it is a checked word (`CHECKED_WORDS`, below).
    id: "okta-api-token",
    pattern: /(?<![^\s"'`=(,[>])00[\w-]{40}(?![\w-])/g,
    literals: [],
    accept: (token) => /[A-Z]/.test(token) && /[a-z]/.test(token) && /\d/.test(token.slice(2)),
    example: `0${"0"}${rep("Qk7xMv2Lp9Wn4Rt8Zb1C-", 40)}`,
  },
  {
    // Facebook (Meta) Graph API access tokens: `EAA` and a long base62 body that reads as random; not
    // the start of a base64 run (which goes on with `+`, `/` or `=`).
    id: "facebook-token",
    pattern: /(?<![\w+/=])EAA[A-Za-z0-9]{40,400}(?![\w+/=])/g,
    literals: ["EAA"],
    accept: looksRandom,
    example: `EA${"A"}CEdEose0cBA${rep("Zx8Yw7Vu6", 60)}`,
  },
]);

/**
 * A word that starts a format's secret but is too common to send a text to the general path on its own
 * (`SK` is in any base64 run): `FORMAT_CANDIDATE` and the recorder's scan find the word, at the start of
 * a word, and then test what follows it (`after`, a regular expression's source) where it is.
 */
export interface CheckedWord {
  readonly word: string;
  readonly after: string;
  /** The most characters `after` reads, its look-ahead included: the scan reads no more. */
  readonly span: number;
  /**
   * The characters that may stand before the word (the start of a text too), where the word is in too
   * many words of other kinds to be looked at after each (`00` ends every time of day, `:00`): the
   * scan's automaton then finds each lead and the word together. Absent: any character but a word's.
   */
  readonly leads?: string;
}

/**
 * How the literal words' automata spell a checked word: after each of its leads, or alone.
 *
 * @example checkedSpellings({ word: "00", after: "", span: 1, leads: " =" }) // [" 00", "=00"]
 */
export const checkedSpellings = (c: CheckedWord): string[] =>
  c.leads ? [...c.leads].map((lead) => `${lead}${c.word}`) : [c.word];

/** What may stand before an Okta token: a blank, a quote, or what ends a pair's name or a list's item. */
const TOKEN_LEADS = " \t\n\r\"'`=(,[>";

export const CHECKED_WORDS: readonly CheckedWord[] = Object.freeze([
  { word: "SK", after: String.raw`[0-9a-fA-F]{32}(?!\w)`, span: 33 },
  // Upper and lower case and a digit among the 40, as the format's `accept` asks.
  {
    word: "00",
    after: String.raw`(?=[\w-]{0,39}[A-Z])(?=[\w-]{0,39}[a-z])(?=[\w-]{0,39}\d)[\w-]{40}(?![\w-])`,
    span: 41,
    leads: TOKEN_LEADS,
  },
]);
