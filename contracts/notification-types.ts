import { AssopayError } from "../core/errors.js";
import type { NotificationType } from "./types.js";

/** Builds the notification types; identifiers and event types must be unique. */
export function buildNotificationTypes(
  raw: { types: NotificationType[] },
  file: string,
): readonly NotificationType[] {
  const ids = new Set<string>();
  const events = new Set<string>();
  for (const type of raw.types) {
    if (ids.has(type.id) || events.has(type.eventType)) {
      throw new AssopayError(
        "bad-contract",
        `notification type "${type.id}" (${type.eventType}) appears twice`,
        {
          location: { file },
          hint: "each id and eventType appears once",
        },
      );
    }
    ids.add(type.id);
    events.add(type.eventType);
  }
  return Object.freeze(raw.types.map((t) => Object.freeze({ ...t })));
}
