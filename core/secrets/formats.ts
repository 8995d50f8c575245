/**
 * Secrets known by their shape, wherever they appear, named or not. The one table of them: the recorder
 * (cassettes, its log lines) and every report (`text.ts`) read it, nothing else lists shapes.
 *
 * Where the shapes come from. Most follow the rules of secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend` 13.x: its rules privatekey, github, aws, slack, npm,
 * sendgrid, shopify, openai, anthropic, linear, 1password, basicauth and database-connection-string, the
 * last two as a URL's password; gcp's service-account keys are a PEM block under `private_key`), each
 * written here from the token format the rule's provider publishes, not copied from the rule. The
 * shapes known from a provider's own documentation of its key prefixes (Stripe, Google, GitLab …) are in
 * `provider-formats.ts`, each with its literal words; two come from the standards (JWT, RFC 7519;
 * `Bearer`, RFC 6750). A shape added to either table is redacted everywhere.
 */
import { CHECKED_WORDS, type CheckedWord, checkedSpellings } from "./access-token-formats.js";
import { buildAutomaton, holdsWordWhere, PLAIN, ROW, wordBytes } from "./automaton.js";
import { PROVIDER_FORMATS, PROVIDER_LITERALS } from "./provider-formats.js";
import { rep, type SecretFormat } from "./shape.js";
import { holdsPrefixedToken, looksRandom, PREFIXED_TOKEN } from "./token-shape.js";

export type { FormatOrigin, SecretFormat } from "./shape.js";
export { FORMAT_ORIGINS } from "./shape.js";

export const SECRET_FORMATS: readonly SecretFormat[] = Object.freeze([
  {
    id: "private-key",
    origin: "secretlint-preset-recommend",
    // A PEM block of any private key kind (RSA, EC, OPENSSH, ENCRYPTED, PGP … BLOCK), in text or with
    // its line breaks escaped inside a JSON string.
    pattern:
      /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]{1,16384}?-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/g,
    secret: 0,
    example: `-----BEGIN ${"RSA PRIVATE"} KEY-----\nMIIEow${rep("Ab3", 60)}\n-----END RSA PRIVATE KEY-----`,
  },
  {
    id: "github-token",
    origin: "secretlint-preset-recommend",
    // Classic tokens: ghp_ (personal), gho_ (OAuth), ghu_/ghs_ (app), ghr_ (refresh), 36+ characters.
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g,
    secret: 0,
    example: `gh${"p"}_${rep("a1B2c3", 36)}`,
  },
  {
    id: "github-fine-grained-token",
    origin: "secretlint-preset-recommend",
    pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
    secret: 0,
    example: `github${"_pat"}_${rep("11AbCdEf", 82)}`,
  },
  {
    id: "aws-access-key-id",
    origin: "secretlint-preset-recommend",
    // Access key ids: a four-letter kind (AKIA long-term, ASIA temporary, …) and 16 more.
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    secret: 0,
    example: `AK${"IA"}${rep("Q3ZX7W", 16)}`,
  },
  {
    id: "slack-token",
    origin: "secretlint-preset-recommend",
    pattern: /\bxox[abposr]-[0-9A-Za-z-]{10,250}/g,
    secret: 0,
    example: `xo${"xb"}-1234567890-${rep("aBcD1", 24)}`,
  },
  {
    id: "slack-webhook",
    origin: "secretlint-preset-recommend",
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/_-]{20,200}/g,
    secret: 0,
    example: `https://hooks.${"slack"}.com/services/T00000000/B00000000/${rep("XyZ9", 24)}`,
  },
  {
    id: "npm-token",
    origin: "secretlint-preset-recommend",
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    secret: 0,
    example: `np${"m"}_${rep("Zx8Yw7", 36)}`,
  },
  {
    id: "sendgrid-key",
    origin: "secretlint-preset-recommend",
    pattern: /\bSG\.[\w-]{22}\.[\w-]{43}\b/g,
    secret: 0,
    example: `S${"G"}.${rep("aB1", 22)}.${rep("cD2", 43)}`,
  },
  {
    id: "shopify-token",
    origin: "secretlint-preset-recommend",
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
    secret: 0,
    example: `shp${"at"}_${rep("0a1b2c3d", 32)}`,
  },
  {
    id: "openai-key",
    origin: "secretlint-preset-recommend",
    // Keys carry the base64 of "openai" (T3BlbkFJ) in their middle.
    pattern: /\bsk-[A-Za-z0-9_-]{0,80}T3BlbkFJ[A-Za-z0-9_-]{16,200}/g,
    secret: 0,
    example: `sk-proj-${rep("Ab1", 20)}${"T3Blbk"}FJ${rep("Cd2", 20)}`,
  },
  {
    id: "anthropic-key",
    origin: "secretlint-preset-recommend",
    pattern: /\bsk-ant-(?:api|admin)\d\d-[\w-]{32,200}/g,
    secret: 0,
    example: `sk-${"ant"}-api03-${rep("Ef3_", 90)}`,
  },
  {
    id: "linear-key",
    origin: "secretlint-preset-recommend",
    pattern: /\blin_api_[A-Za-z0-9]{40}\b/g,
    secret: 0,
    example: `lin${"_api"}_${rep("Gh4Ij5", 40)}`,
  },
  {
    id: "1password-service-token",
    origin: "secretlint-preset-recommend",
    // Service account tokens: `ops_` and a base64 JSON document.
    pattern: /\bops_eyJ[\w+/=-]{50,2000}/g,
    secret: 0,
    example: `op${"s"}_eyJ${rep("zIjoiYWJj", 80)}`,
  },
  {
    id: "url-password",
    origin: "secretlint-preset-recommend",
    // The password of `scheme://user:password@host` (a broker URL, a database URL); the user is kept.
    // Anchored on `://` (a literal the engine finds fast); the scheme before it is not needed.
    pattern: /:\/\/[^\s/?#:@"'<>]{1,256}:(?<secret>[^\s/?#@"'<>]{1,256})(?=@[\w[])/g,
    secret: 1,
    example: `https://ci:${"hunter2-broker"}@broker.example`,
  },
  {
    id: "url-token",
    origin: "standard",
    // A token as a URL's whole userinfo (RFC 3986), no password after it: an error tracker's DSN
    // (`https://<key>@o1.ingest.example/1`), a git remote's `https://<token>@host/repo`. Only a body
    // that reads as random (`token-shape.ts`): `https://user@host` keeps its user.
    pattern: /:\/\/(?<secret>[\w-]{20,256})(?=@[\w[])/g,
    secret: 1,
    accept: looksRandom,
    example: `https://${"0a1b2c3d4e5f6789"}${"9f8e7d6c5b4a3210"}@o1.ingest.example/1`,
  },
  ...PROVIDER_FORMATS,
  {
    id: "jwt",
    origin: "standard",
    // Three base64url parts, the first two JSON objects (`eyJ` is `{"`).
    pattern: /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*/g,
    secret: 0,
    example: `ey${"J"}hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${rep("sIg5", 43)}`,
  },
  {
    id: "bearer",
    origin: "standard",
    // `Bearer <credential>` in text; the credential holds a digit (prose after "bearer" does not).
    pattern: /\bbearer\s+(?<secret>[\w.~+/-]*\d[\w.~+/-]*=*)/gi,
    secret: 1,
    example: `Bearer ${"abc123def456"}`,
  },
  // Last: the prefixed tokens no entry above names (a prefix and a random body, `token-shape.ts`).
  PREFIXED_TOKEN,
]);

/**
 * The shapes' literal words, for the recorder's one-pass body scan (`proxy/redaction/scan.ts`),
 * which finds them all with one automaton: its literals with their classes spelled out, `://` (where the
 * scan then tests for a URL password), and `bearer` (in any case, where it then tests for a blank after).
 * The tests check that the scan and `FORMAT_CANDIDATE` (below) agree.
 */
export const FORMAT_WORDS: {
  readonly literals: readonly string[];
  readonly urlPassword: string;
  readonly bearer: string;
  readonly checked: readonly CheckedWord[];
} = Object.freeze({
  literals: Object.freeze([
    "PRIVATE KEY",
    ..."pousr".split("").map((c) => `gh${c}_`),
    "github_pat_",
    "A3T",
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    ..."abposr".split("").map((c) => `xox${c}-`),
    "hooks.slack.com",
    "npm_",
    "SG.",
    ...["at", "ca", "pa", "ss"].map((k) => `shp${k}_`),
    "T3BlbkFJ",
    "sk-ant-",
    "lin_api_",
    ...PROVIDER_LITERALS,
    "eyJ",
  ]),
  urlPassword: "://",
  bearer: "bearer",
  checked: CHECKED_WORDS,
});

/** The tag of the literal words in `LITERALS`; a checked word's is this plus one plus its index. */
const LITERAL_TAG = 1;

/**
 * The literal words above and the checked words (each after each of its leads, if it has them), found
 * in one pass whatever their number (`FORMAT_CANDIDATE`).
 */
const LITERALS = buildAutomaton(
  [
    ...FORMAT_WORDS.literals.map((word) => ({ bytes: wordBytes(word), tag: LITERAL_TAG })),
    ...CHECKED_WORDS.flatMap((c, i) =>
      checkedSpellings(c).map((word) => ({
        bytes: wordBytes(word),
        tag: LITERAL_TAG + 1 + i,
      })),
    ),
  ],
  PLAIN,
);

/** Where `LITERALS` starts: as after a line's end, so that a checked word's lead is met at the start. */
const LITERALS_START = (LITERALS.next[0x0a] as number) & ROW;

/** What must follow each checked word, anchored. */
const CHECKED_AFTER = CHECKED_WORDS.map((c) => new RegExp(`^(?:${c.after})`));

/** Whether the word that `LITERALS` found ending at `end` (its tag `tag`) is a format's candidate. */
function literalAt(text: string, tag: number, end: number): boolean {
  if (tag === LITERAL_TAG) return true;
  const checked = CHECKED_WORDS[tag - LITERAL_TAG - 1];
  const after = CHECKED_AFTER[tag - LITERAL_TAG - 1];
  if (!checked || !after) return false;
  // Without leads, the word starts a word.
  const before = text.charCodeAt(end - checked.word.length);
  if (!checked.leads && end >= checked.word.length && WORD_CHAR.test(String.fromCharCode(before)))
    return false;
  return after.test(text.slice(end + 1, end + 1 + checked.span));
}

const WORD_CHAR = /\w/;
/** What credentials in a URL look like after its `://`: a user, `:`, a password and `@`, or a token and `@`. */
const URL_CREDENTIALS = String.raw`(?:[^\s/?#:@]{1,256}:[^\s/?#@]{1,256}|[\w-]{20,256})@`;

/** The candidates that are not words: a URL's credentials, and `bearer` in any case. */
const URL_PASSWORD_OR_BEARER = new RegExp(
  [String.raw`:\/\/${URL_CREDENTIALS}`, String.raw`[Bb][Ee][Aa][Rr][Ee][Rr]\s`].join("|"),
);

/**
 * A necessary condition of every shape above: a text it does not match holds none of them. One pass of
 * the literal words' automaton (whatever their number), then the URL password and `bearer` (in any case,
 * letter by letter), then a prefixed token with a random body. The tests check that every format's
 * example matches it.
 */
export const FORMAT_CANDIDATE: { test(text: string): boolean } = Object.freeze({
  test: (text: string) =>
    holdsWordWhere(LITERALS, text, literalAt, LITERALS_START) ||
    URL_PASSWORD_OR_BEARER.test(text) ||
    holdsPrefixedToken(text),
});

/** What follows `://` in `FORMAT_CANDIDATE`: a URL's credentials (tested where `://` is). */
export const URL_PASSWORD_REST = new RegExp(`^${URL_CREDENTIALS}`);

/**
 * `text` with every secret of a known shape replaced by `replace(secret)`. Text without any candidate is
 * returned as it is, at the cost of one pass of `FORMAT_CANDIDATE`.
 *
 * @example redactFormats("push with ghp_… now", () => "<x>") // "push with <x> now"
 */
export function redactFormats(text: string, replace: (secret: string) => string): string {
  if (!FORMAT_CANDIDATE.test(text)) return text;
  let out = text;
  for (const format of SECRET_FORMATS) {
    if (out.search(format.pattern) < 0) continue;
    out = out.replace(format.pattern, (found: string, ...rest: unknown[]) => {
      const last = rest[rest.length - 1];
      const group =
        typeof last === "object" && last !== null ? (last as { secret?: string }).secret : undefined;
      // `accept` judges the secret group where there is one (a token's body), else the whole match.
      if (format.accept && !format.accept(group ?? found)) return found;
      if (format.secret === 0) return replace(found);
      // The secret group ends the match: what precedes it (a scheme and user, `Bearer `) is kept.
      const secret = group ?? "";
      return secret === "" ? found : found.slice(0, found.length - secret.length) + replace(secret);
    });
  }
  return out;
}
