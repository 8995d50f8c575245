import { RETRY_SLACK_MS } from "../exchange.js";
import type { Fault } from "../scenarios.js";

/** A refusal the layer answers instead of the upstream. */
export type Refusal =
  | { readonly kind: "rate-limited"; readonly retryAfter: string }
  | { readonly kind: "unavailable" }
  | { readonly kind: "connection-reset" };

/**
 * A scenario's refusals, answered in order on mid-crawl calls, each once the previous one was cured by a
 * page served. A 429 holds for every API call until the moment its `Retry-After` names (less
 * `RETRY_SLACK_MS`); a call before it
 * gets 429 again, with a fresh `Retry-After` of the same form, as a rate limiter does.
 */
export interface FaultSchedule {
  /** The refusal for a call arriving `now`, if any; `midCrawl`: a listing call carrying a continuation token. */
  refusal(now: number, midCrawl: boolean): Refusal | undefined;
  /** A listing page was served: the next refusal may come. */
  served(): void;
}

/** What a 429 asks in seconds; the HTTP-date form names a whole second between 0.5 and 1.5 s ahead. */
export const RETRY_AFTER_SECONDS = 1;

function rateLimit(form: Fault, now: number): { until: number; retryAfter: string } {
  if (form === "rate-limit-date") {
    const until = Math.ceil((now + 500) / 1000) * 1000;
    return { until, retryAfter: new Date(until).toUTCString() };
  }
  return { until: now + RETRY_AFTER_SECONDS * 1000, retryAfter: String(RETRY_AFTER_SECONDS) };
}

export function createFaultSchedule(faults: readonly Fault[]): FaultSchedule {
  const queue = [...faults];
  let armed = true;
  let limit: { form: Fault; until: number } | undefined;
  return {
    refusal(now, midCrawl) {
      if (limit && now < limit.until - RETRY_SLACK_MS) {
        const again = rateLimit(limit.form, now);
        limit = { form: limit.form, until: again.until };
        return { kind: "rate-limited", retryAfter: again.retryAfter };
      }
      if (!midCrawl || !armed) return undefined;
      const fault = queue.shift();
      if (fault === undefined) return undefined;
      armed = false;
      switch (fault) {
        case "rate-limit-seconds":
        case "rate-limit-date": {
          const first = rateLimit(fault, now);
          limit = { form: fault, until: first.until };
          return { kind: "rate-limited", retryAfter: first.retryAfter };
        }
        case "unavailable":
          return { kind: "unavailable" };
        case "connection-reset":
          return { kind: "connection-reset" };
      }
    },
    served() {
      armed = true;
    },
  };
}
