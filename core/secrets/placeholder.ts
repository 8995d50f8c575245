import { createHmac } from "node:crypto";

/**
 * The key of the placeholder HMAC when the user gives no salt. It is public: a placeholder only hides
 * a secret that cannot be guessed. A short or common secret (a password, "test") can be found by trying
 * candidates, so pass a salt of your own (`ASSOPAY_CASSETTE_SALT`) when that matters.
 */
const PUBLIC_KEY = "assopay-cassette/1 secret placeholder";

/** A value that is a placeholder and nothing else. */
export const WHOLE_PLACEHOLDER = /^<secret:[0-9a-f]{16}>$/;

/**
 * The stable placeholder of a secret: `<secret:` + the first 16 hex digits of HMAC-SHA256(salt, secret)
 * + `>`. The same secret always gives the same placeholder, in every cassette recorded with the same salt
 * and in every report.
 *
 * @example placeholderFor("s3cr3t-value") // "<secret:…16 hex digits…>"
 */
export function placeholderFor(secret: string, salt?: string): string {
  const digest = createHmac("sha256", salt ?? PUBLIC_KEY)
    .update(secret, "utf8")
    .digest("hex");
  return `<secret:${digest.slice(0, 16)}>`;
}
