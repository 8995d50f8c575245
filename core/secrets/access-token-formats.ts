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
}

export const CHECKED_WORDS: readonly CheckedWord[] = Object.freeze([
  { word: "SK", after: String.raw`[0-9a-fA-F]{32}(?!\w)` },
]);
