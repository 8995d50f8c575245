/**
 * The one list of names that say a value is a secret: JSON keys, form, query and multipart fields,
 * headers. Every writer of the project (the recorder's cassettes and logs, every report) judges names by
 * these lists, so a name added here is redacted everywhere.
 */

/**
 * Endings of secret field names, written without case, `_` or `-`: a field is a secret when its name,
 * once lower-cased and stripped of `_` and `-`, **ends with** one of these (`access_token`,
 * `accessToken`, `X-Access-Token`, `webhookSecret`, `newPassword`, `X-Session-Id`, `PHPSESSID`), unless
 * it is one of {@link NOT_SECRET_FIELD_NAMES}.
 */
export const SECRET_FIELD_NAMES: readonly string[] = Object.freeze([
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "pwd",
  "passphrase",
  // French, which the service speaks: `mot_de_passe`, `motDePasse`, "Mot de passe".
  "motdepasse",
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
  "sessionid",
  "sessid",
  "authcode",
  "authorizationcode",
  "otpcode",
]);

/**
 * Names that are secrets only when they are the whole name (normalised as above): `sig=` (a signed
 * URL's signature), a one-time password, a PIN. As endings they would catch ordinary words
 * (`shipping` does not end with `pin`, but `userpin` vs `spin` cannot be told apart), so they match
 * exactly, in every place a name is read.
 */
export const EXACT_SECRET_NAMES: readonly string[] = Object.freeze(["sig", "otp", "pin", "totp"]);

/**
 * Names that are secrets only in a URL's query or fragment and in form fields, where OAuth carries
 * them (`?code=…&state=…`, `grant_type=authorization_code&code=…`) and Firebase's REST API its token
 * (`?auth=…`). In JSON they are ordinary data of the API (a payment's `state`, an error's `code`) and
 * are kept; a field merely ending like them (`country_code`, `statement`, `oauth`) is kept everywhere.
 */
export const FORM_SECRET_NAMES: readonly string[] = Object.freeze(["code", "state", "auth"]);

/**
 * Names that end like a secret but are not one: the provider's pagination cursor (`continuationToken`,
 * sent back as a query parameter) is public, and replay must see it as it was.
 */
export const NOT_SECRET_FIELD_NAMES: readonly string[] = Object.freeze([
  "continuationtoken",
  "nextpagetoken",
]);

/** Where a name is read: a JSON key or a header (`field`), or a query, fragment or form name (`form`). */
export type NamePlace = "field" | "form";

/** A field name as the lists compare it: lower case, without `_`, `-` or blanks ("Mot de passe"). */
export function normalFieldName(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/**
 * Whether a value under `name` is a secret, read at `place` (see {@link NamePlace}). `endings` are
 * {@link SECRET_FIELD_NAMES} unless a recorder's classifier lists more.
 *
 * @example isSecretName("client_secret", "field") // true
 * @example isSecretName("state", "field") // false — isSecretName("state", "form") // true
 */
export function isSecretName(
  name: string,
  place: NamePlace,
  endings: readonly string[] = SECRET_FIELD_NAMES,
): boolean {
  const normal = normalFieldName(name);
  if (NOT_SECRET_FIELD_NAMES.includes(normal)) return false;
  if (EXACT_SECRET_NAMES.includes(normal)) return true;
  if (place === "form" && FORM_SECRET_NAMES.includes(normal)) return true;
  return endings.some((end) => normal.endsWith(end));
}

/**
 * Headers whose whole value is a credential though their names do not say so (besides those named like
 * a secret field and those ending in `-key`: {@link isCredentialHeader}). The recorder's headers and every
 * report's evidence are judged by this one list.
 */
export const CREDENTIAL_HEADERS: readonly string[] = Object.freeze([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-ha-signature",
  "x-hub-signature",
  "x-signature",
]);

/**
 * Whether a header's value is a credential, by the header's name: one of {@link CREDENTIAL_HEADERS},
 * a name ending in `-key` (`x-goog-api-key`), or one named like a secret field (`x-access-token`).
 * `secretName` judges the last (a recorder's classifier may list more names).
 *
 * @example isCredentialHeader("Ocp-Apim-Subscription-Key") // true
 */
export function isCredentialHeader(
  name: string,
  secretName: (name: string) => boolean = (n) => isSecretName(n, "field"),
): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.includes(lower) || lower.endsWith("-key") || secretName(lower);
}
