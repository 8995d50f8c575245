import type { Contract, NotificationType } from "../types.js";
import { exampleOf } from "./examples.js";
import { reroot, toRules } from "./interaction.js";

const SIGNATURE = "0".repeat(64);

/** The schema of a notification's `data`, by event type; other types carry an empty object. */
const DATA_SCHEMAS = new Map([
  ["Order", "order"],
  ["Payment", "payment"],
]);

/** The description of a notification type's message interaction (before the era is added). */
export function messageDescription(type: NotificationType): string {
  return `a ${type.eventType} notification${type.assumed ? " (identifier assumed: not published by the provider)" : ""}`;
}

/**
 * A Pact V4 `Asynchronous/Messages` interaction per notification type: the envelope with its event type,
 * its data, and the `x-ha-signature` metadata (lowercase hex HMAC-SHA256 of the raw body).
 */
export function messageInteractions(contract: Contract): Record<string, unknown>[] {
  return contract.notificationTypes.map((type) => {
    const schema = DATA_SCHEMAS.get(type.eventType);
    const data = schema ? exampleOf(contract.schemas, schema) : { value: {}, rules: {} };
    return {
      type: "Asynchronous/Messages",
      description: messageDescription(type),
      pending: false,
      providerStates: [{ name: type.trigger }],
      contents: {
        content: { eventType: type.eventType, data: data.value },
        contentType: "application/json",
        encoded: false,
      },
      metadata: { contentType: "application/json", "x-ha-signature": SIGNATURE },
      matchingRules: {
        body: toRules({ "$.data": [{ match: "type" }], ...reroot(data.rules, "$.data") }),
        metadata: toRules({ "x-ha-signature": [{ match: "regex", regex: "^[0-9a-f]{64}$" }] }),
      },
    };
  });
}
