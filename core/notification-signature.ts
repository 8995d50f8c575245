import { createHmac, timingSafeEqual } from "node:crypto";

/** The header the service signs notifications in (SERVICE-FACTS: Notifications). */
export const SIGNATURE_HEADER = "x-ha-signature";

/**
 * The service's signature of a notification: lowercase hex HMAC-SHA256 of the raw body bytes (a string
 * is taken as its UTF-8 bytes), keyed with the UTF-8 bytes of the notification URL's `signatureKey`.
 * The sandbox signs with it, notify forges with it, verify and the recorder check with it.
 *
 * @example signNotification(Buffer.from('{"eventType":"Order"}'), "my-signature-key") // 64 hex digits
 */
export function signNotification(body: Buffer | string, key: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

/** Which of `keys`, if any, produced `header` over the raw body (compared in constant time). */
export function signingKeyOf(body: Buffer, header: string, keys: Iterable<string>): string | undefined {
  const given = Buffer.from(header, "utf8");
  for (const key of keys) {
    const expected = Buffer.from(signNotification(body, key), "utf8");
    if (expected.length === given.length && timingSafeEqual(expected, given)) return key;
  }
  return undefined;
}
