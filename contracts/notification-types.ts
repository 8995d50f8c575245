import type { YamlFile } from "../core/yaml-file.js";
import { dataError } from "./data-file.js";
import type { NotificationType } from "./types.js";

/** Builds the notification types; identifiers and event types must be unique. */
export function buildNotificationTypes({ data, file }: YamlFile): readonly NotificationType[] {
  const raw = data as { types: NotificationType[] };
  const ids = new Set<string>();
  const events = new Set<string>();
  for (const type of raw.types) {
    if (ids.has(type.id) || events.has(type.eventType)) {
      const message = `notification type "${type.id}" (${type.eventType}) appears twice`;
      throw dataError(file, undefined, message, "each id and eventType appears once");
    }
    ids.add(type.id);
    events.add(type.eventType);
  }
  return Object.freeze(raw.types.map((t) => Object.freeze({ ...t })));
}
