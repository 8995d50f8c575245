import { createHmac } from "node:crypto";
import { fail, pass, type SpecCheck, skip } from "../runner/verdicts.js";
import { deliveryEvidence, notificationSession } from "./session.js";

const RULE = "notifications.signature";

/** Lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the UTF-8 bytes of the URL's key. */
export function expectedSignature(body: Buffer, key: string): string {
  return createHmac("sha256", Buffer.from(key, "utf8")).update(body).digest("hex");
}

/**
 * Authentication 4: every notification carries `x-ha-signature`, the lowercase hex HMAC-SHA256 of its
 * raw body with the signing key partner information gives for the URL (never over re-serialised JSON).
 */
export const signatureCheck: SpecCheck = {
  id: "notifications/signature",
  group: "notifications",
  rule: RULE,
  title: "Each notification is signed with its URL's key (x-ha-signature)",
  async run(ctx) {
    const session = await notificationSession(ctx);
    if (!session.ok) {
      return session.failure ? fail(session.failure.reason, session.failure.evidence) : skip(session.reason);
    }
    if (session.keyProblem || session.key === undefined) {
      return fail(session.keyProblem?.reason ?? "no signing key", session.keyProblem?.evidence);
    }
    const deliveries = session.triggers.flatMap((t) => t.deliveries);
    if (deliveries.length === 0) {
      return skip("no notification arrived to check (see notifications.payload-schema)");
    }
    let bad = 0;
    let first: ReturnType<typeof deliveryEvidence> | undefined;
    let firstReason = "";
    for (const delivery of deliveries) {
      const header = delivery.headers["x-ha-signature"];
      const expected = expectedSignature(delivery.body, session.key);
      const reason =
        typeof header !== "string" || header === ""
          ? "no x-ha-signature header"
          : header !== expected
            ? header.toLowerCase() === expected
              ? "x-ha-signature is not lowercase hex"
              : "x-ha-signature does not match the HMAC-SHA256 of the raw body with the URL's signatureKey"
            : undefined;
      if (reason === undefined) continue;
      bad++;
      if (!first) {
        firstReason = reason;
        first = deliveryEvidence(session.receiver, delivery, [`expected x-ha-signature: ${expected}`]);
      }
    }
    if (first) return fail(`${bad} of ${deliveries.length} notifications: ${firstReason}`, first);
    return pass(`${deliveries.length} notifications, each signed with the URL's key`);
  },
};
