import type { ProxyEventSink } from "../events.js";
import type { Redactor } from "./redactor.js";
import { redactLogText } from "./url.js";

/** A sink that redacts, and can be taught secrets met elsewhere (see {@link teachEvents}). */
export interface RedactingSink extends ProxyEventSink {
  readonly learn: (secrets: readonly string[]) => void;
}

/**
 * A sink that passes every event on with its message redacted as the cassette is (URLs by their query
 * and fragment, secrets of a recognised shape, secrets met so far): what the recorder prints, its
 * failed exchanges included, holds no more than what it writes.
 *
 * @example redactEvents((e) => console.error(e.message), createRedactor(salt, false, false))
 */
export function redactEvents(sink: ProxyEventSink, r: Redactor): RedactingSink {
  return Object.assign(
    (event: Parameters<ProxyEventSink>[0]) => sink({ ...event, message: redactLogText(event.message, r) }),
    {
      learn: (secrets: readonly string[]) => r.secrets.remember(secrets),
    },
  );
}

/**
 * Hands the secrets the recording worker learned (a token in a body, a key in a header) to `sink` when
 * it is a redacting one, so that a later line on the proxy's thread (a failed exchange whose path holds
 * that token) is scrubbed of them as the cassette is.
 */
export function teachEvents(sink: ProxyEventSink, secrets: readonly string[]): void {
  (sink as Partial<RedactingSink>).learn?.(secrets);
}
