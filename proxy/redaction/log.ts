import type { ProxyEventSink } from "../events.js";
import type { Redactor } from "./redactor.js";
import { redactLogText } from "./url.js";

/**
 * A sink that passes every event on with its message redacted as the cassette is (URLs by their query
 * and fragment, secrets of a recognised shape, secrets met so far): what the recorder prints, its
 * failed exchanges included, holds no more than what it writes.
 *
 * @example redactEvents((e) => console.error(e.message), createRedactor(salt, false, false))
 */
export function redactEvents(sink: ProxyEventSink, r: Redactor): ProxyEventSink {
  return (event) => sink({ ...event, message: redactLogText(event.message, r) });
}
