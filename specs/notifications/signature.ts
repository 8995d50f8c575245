import { SIGNATURE_HEADER, signNotification } from "../../core/notification-signature.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import { deliveryEvidence, notificationSession } from "./session.js";

/**
 * Authentication 4: every notification carries `x-ha-signature`, the lowercase hex HMAC-SHA256 of its
 * raw body with the signing key partner information gives for the URL it was sent to (never over
 * re-serialised JSON). Two URLs are registered, so a key of another URL is told apart from the right one.
 */
export const signatureCheck = specCheck({
  id: "notifications/signature",
  rule: "notifications.signature",
  title: "Each notification is signed with its URL's key (x-ha-signature)",
  async run(ctx) {
    const session = await notificationSession(ctx);
    if (!session.ok) {
      return session.failure ? fail(session.failure.reason, session.failure.evidence) : skip(session.reason);
    }
    const keyless = session.registered.find((r) => r.key === undefined);
    if (keyless) {
      return fail(
        `partner information gives no signatureKey for the registered URL ${keyless.url}`,
        keyless.keyEvidence,
      );
    }
    const byName = new Map(session.registered.map((r) => [r.name, r]));
    const deliveries = session.triggers
      .flatMap((t) => t.deliveries)
      .filter((d) => byName.has(session.receiver.nameOf(d)));
    if (deliveries.length === 0) {
      return skip("no notification arrived to check (see notifications.payload-schema)");
    }
    let bad = 0;
    let first: ReturnType<typeof deliveryEvidence> | undefined;
    let firstReason = "";
    for (const delivery of deliveries) {
      const own = byName.get(session.receiver.nameOf(delivery));
      const expected = signNotification(delivery.body, own?.key ?? "");
      const header = delivery.headers[SIGNATURE_HEADER];
      const other = session.registered.find(
        (r) => r !== own && r.key !== undefined && header === signNotification(delivery.body, r.key),
      );
      const reason =
        typeof header !== "string" || header === ""
          ? "no x-ha-signature header"
          : header === expected
            ? undefined
            : header.toLowerCase() === expected
              ? "x-ha-signature is not lowercase hex"
              : other
                ? `x-ha-signature is made with the signatureKey of another URL (${other.url}), not of the URL it was sent to`
                : "x-ha-signature does not match the HMAC-SHA256 of the raw body with the URL's signatureKey";
      if (reason === undefined) continue;
      bad++;
      if (!first) {
        firstReason = reason;
        first = deliveryEvidence(session.receiver, delivery, [`expected x-ha-signature: ${expected}`]);
      }
    }
    if (first) return fail(`${bad} of ${deliveries.length} notifications: ${firstReason}`, first);
    const urls = session.registered.length;
    const restored = session.restored === "" ? "" : `; ${session.restored}`;
    return pass(
      `${deliveries.length} notifications to ${urls} URL(s), each signed with its URL's key (${session.triggers.map((t) => t.state).join("; ")})${restored}`,
    );
  },
});
