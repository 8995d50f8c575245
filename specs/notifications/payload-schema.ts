import { parseJsonBuffer } from "../runner/http.js";
import {
  combine,
  fail,
  failOn,
  passOn,
  type SubjectFinding,
  skip,
  skipOn,
  specCheck,
} from "../runner/verdicts.js";
import { deliveryEvidence, notificationSession } from "./session.js";

/**
 * Events: each state that should trigger notifications does, within the wait, and every body is the
 * envelope `{eventType, data}` (eventType open: identifiers the seed does not publish are accepted).
 */
export const payloadSchemaCheck = specCheck({
  id: "notifications/payload-schema",
  rule: "notifications.payload-schema",
  title: "Notifications arrive for each event, as {eventType, data} envelopes",
  async run(ctx) {
    const session = await notificationSession(ctx);
    if (!session.ok)
      return skip(session.failure ? `${session.reason} (see notifications.signature)` : session.reason);
    const findings: SubjectFinding[] = [];
    for (const trigger of session.triggers) {
      const subject = `"${trigger.state}"`;
      if (trigger.refused) {
        findings.push(skipOn(subject, trigger.refused));
        continue;
      }
      if (trigger.deliveries.length < trigger.expected.length) {
        const reason = `${trigger.deliveries.length} of ${trigger.expected.length} notifications (${trigger.expected.map((t) => t.eventType).join(", ")}) arrived within ${ctx.options.notificationTimeoutMs / 1000} s`;
        findings.push(failOn(subject, reason));
        continue;
      }
      const seen = new Set<string>();
      let bad: SubjectFinding | undefined;
      for (const delivery of trigger.deliveries) {
        const parsed = parseJsonBuffer(delivery.body);
        if (!parsed.ok) {
          bad ??= failOn(subject, parsed.why, deliveryEvidence(session.receiver, delivery));
          continue;
        }
        const diagnostics = ctx.contract.schemas.validate("notification", parsed.value, "notification");
        if (diagnostics.length > 0) {
          const messages = diagnostics.map((d) => d.message);
          const reason = `not a {eventType, data} envelope: ${messages[0] ?? ""}`;
          bad ??= failOn(subject, reason, deliveryEvidence(session.receiver, delivery, messages));
          continue;
        }
        seen.add((parsed.value as { eventType: string }).eventType);
      }
      if (bad) {
        findings.push(bad);
        continue;
      }
      const missing = trigger.expected.filter((t) => !t.assumed && !seen.has(t.eventType));
      const among = [...seen].join(", ");
      const names = missing.map((t) => t.eventType).join(", ");
      findings.push(
        missing.length > 0
          ? failOn(subject, `no ${names} notification among ${among}`)
          : passOn(subject, among),
      );
    }
    if (findings.length === 0) return fail("no state to trigger notifications");
    return combine(findings, "events notified with valid envelopes");
  },
});
