import { createHmac } from "node:crypto";

/** The notification signature header the service adds. */
export const SIGNATURE_HEADER = "x-ha-signature";

/**
 * The service's signature: lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the UTF-8 bytes
 * of the notification URL's `signatureKey`.
 *
 * @example sign(Buffer.from('{"eventType":"Order"}'), "my-signature-key") // "3f1c…" (64 hex digits)
 */
export function sign(body: Buffer, key: string): string {
  return createHmac("sha256", Buffer.from(key, "utf8")).update(body).digest("hex");
}
