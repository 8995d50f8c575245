import { createHmac } from "node:crypto";

/**
 * The key of the placeholder HMAC when the user gives no salt. It is public: a placeholder only hides
 * a secret that cannot be guessed. A short or common secret (a password, "test") can be found by trying
 * candidates, so pass a salt of your own (`ASSOPAY_CASSETTE_SALT`) when that matters.
 */
const PUBLIC_KEY = "assopay-cassette/1 secret placeholder";

/** A placeholder, alone or inside a larger value (`Bearer <secret:…>`). */
export const PLACEHOLDER = /<secret:[0-9a-f]{16}>/;
const WHOLE_PLACEHOLDER = /^<secret:[0-9a-f]{16}>$/;

/** Secrets shorter than this are replaced where they are named, but not searched for everywhere. */
const MIN_SCRUB_LENGTH = 8;

/**
 * The stable placeholder of a secret: `<secret:` + the first 16 hex digits of HMAC-SHA256(salt, secret)
 * + `>`. The same secret always gives the same placeholder, in every cassette recorded with the same salt.
 *
 * @example placeholderFor("s3cr3t-value") // "<secret:…16 hex digits…>"
 */
export function placeholderFor(secret: string, salt?: string): string {
  const digest = createHmac("sha256", salt ?? PUBLIC_KEY)
    .update(secret, "utf8")
    .digest("hex");
  return `<secret:${digest.slice(0, 16)}>`;
}

/**
 * The one list of secret field names, written without case, `_` or `-`: a JSON, form, multipart or query
 * field (and a header) is a secret when its name, once lower-cased and stripped of `_` and `-`, **ends
 * with** one of these (`access_token`, `accessToken`, `X-Access-Token`, `token`, `webhookSecret`,
 * `newPassword`), unless it is one of {@link NOT_SECRET_FIELD_NAMES}. The classifier and the fast paths'
 * key filter are both computed from it (`fields.ts`): a name added here is redacted on every path.
 */
export const SECRET_FIELD_NAMES: readonly string[] = Object.freeze([
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "signaturekey",
  "codeverifier",
  "apikey",
  "apikeys",
  "privatekey",
  "secretkey",
  "accesskey",
  "signingkey",
  "credential",
  "credentials",
  "authorization",
  "cvv",
  "cvc",
]);

/**
 * Names that end like a secret but are not one: the provider's pagination cursor (`continuationToken`,
 * sent back as a query parameter) is public, and replay must see it as it was.
 */
export const NOT_SECRET_FIELD_NAMES: readonly string[] = Object.freeze([
  "continuationtoken",
  "nextpagetoken",
]);

/** A field name as the lists compare it: lower case, without `_` or `-`. */
export function normalFieldName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces secrets by placeholders and remembers every secret it replaced, so that the same secret is
 * also replaced where it appears unnamed (echoed in an error text, in a URL). One book per recorder.
 */
export class SecretBook {
  private readonly salt: string | undefined;
  private readonly learn: boolean;
  private readonly known = new Map<string, string>();
  private readonly signing = new Map<string, string>();
  private pattern: RegExp | undefined;
  private stale = false;

  /** `learn: false` (replay) replaces named secrets without remembering them. */
  constructor(salt: string | undefined, learn = true) {
    this.salt = salt;
    this.learn = learn;
  }

  /**
   * The placeholder of `secret` (a placeholder or an empty value is returned as it is). `field` is the
   * name it was found under: the values of `signatureKey` fields are kept as notification signing keys.
   */
  redact(secret: string, field?: string): string {
    if (secret === "" || WHOLE_PLACEHOLDER.test(secret)) return secret;
    const known = this.known.get(secret);
    if (known && field === undefined) return known;
    const placeholder = known ?? placeholderFor(secret, this.salt);
    if (this.learn && field !== undefined && normalFieldName(field) === "signaturekey") {
      this.signing.set(secret, placeholder);
    }
    if (known) return known;
    if (this.learn && secret.length >= MIN_SCRUB_LENGTH) {
      this.known.set(secret, placeholder);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) this.known.set(encoded, placeholder);
      this.stale = true;
    }
    return placeholder;
  }

  /** Every secret met so far (and its URL-encoded form). */
  knownSecrets(): Iterable<string> {
    return this.known.keys();
  }

  /** Signing keys met so far (in `signatureKey` fields), each with its placeholder. */
  signingKeys(): ReadonlyMap<string, string> {
    return this.signing;
  }

  /** `text` with every secret met so far replaced by its placeholder. */
  scrub(text: string): string {
    if (this.known.size === 0 || text.length < MIN_SCRUB_LENGTH) return text;
    if (this.stale || !this.pattern) {
      const alternatives = [...this.known.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.pattern = new RegExp(alternatives.join("|"), "g");
      this.stale = false;
    }
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    return text.replace(this.pattern, (found) => this.known.get(found) ?? found);
  }
}
