import { type ConsumerRules, loadConsumerRules } from "../contracts/consumer-rules.js";
import { type Contract, loadContract, type NotificationType } from "../contracts/index.js";
import { AssopayError } from "../core/errors.js";
import { fetchBlockedPort } from "./blocked-ports.js";

/** Options of {@link runNotify}. `to` and `key` are required. */
export interface NotifyOptions {
  /**
   * The receiver's URL, `http` or `https`.
   * @example { to: "http://127.0.0.1:3000/webhooks/helloasso" }
   */
  to: string;
  /**
   * The signing key the receiver verifies with (the notification URL's `signatureKey`).
   * @example { key: process.env.HA_SIGNATURE_KEY }
   */
  key: string;
  /**
   * The notification types to send signed, by event type or id (default: every type of the contract).
   * @example { types: ["Order", "Payment"] }
   */
  types?: readonly string[];
  /**
   * Seconds to wait for each answer (default 15, as the service is reported to wait; fractions allowed).
   * @example { timeoutSeconds: 5 }
   */
  timeoutSeconds?: number;
  /**
   * The event type standing for a future, unknown one (default `FutureEvent`).
   * @example { unknownEventType: "Subscription" }
   */
  unknownEventType?: string;
  /**
   * The contract whose notification types are sent (default: `loadContract()`).
   * @example { contract: loadContract({ notificationTypesFile: "published-types.yaml" }) }
   */
  contract?: Contract;
  /**
   * The consumer rules whose severities weigh each failed case (default: `loadConsumerRules()`).
   * @example { rules: loadConsumerRules("my-rules.yaml") }
   */
  rules?: ConsumerRules;
  /**
   * Robustness advice (accepting a repeated delivery) fails the run instead of warning.
   * @example { strict: true }
   */
  strict?: boolean;
}

export interface ResolvedNotifyOptions {
  readonly to: string;
  readonly key: string;
  readonly types: readonly NotificationType[];
  readonly timeoutMs: number;
  readonly unknownEventType: string;
  readonly rules: ConsumerRules;
  readonly strict: boolean;
}

export const DEFAULT_NOTIFY_TIMEOUT_SECONDS = 15;
/** The longest `--timeout` (seconds). */
export const NOTIFY_TIMEOUT_LIMIT_SECONDS = 600;

/** Checks the options once; a mistake is an `AssopayError` (`usage`, exit 2). */
export function resolveNotifyOptions(options: NotifyOptions): ResolvedNotifyOptions {
  let url: URL;
  try {
    url = new URL(options.to);
  } catch {
    throw new AssopayError("usage", `assopay notify: --to must be a URL, got "${options.to}"`, {
      hint: "for example --to http://127.0.0.1:3000/webhooks/helloasso",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AssopayError(
      "usage",
      `assopay notify: --to must be an http or https URL, got "${options.to}"`,
      {
        hint: "for example --to https://example.org/webhooks/helloasso",
      },
    );
  }
  const blocked = fetchBlockedPort(url);
  if (blocked !== undefined) {
    throw new AssopayError(
      "usage",
      `assopay notify: --to uses port ${blocked}, one of the ports Node's fetch refuses to connect to (the fetch standard's "bad ports": ${blocked} is reserved for another protocol)`,
      {
        hint: `run the receiver on another port (3000 or 8080, for example) and pass that port in --to`,
      },
    );
  }
  if (options.key === "") {
    throw new AssopayError("usage", "assopay notify: the signing key is empty", {
      hint: "pass --key KEY or set ASSOPAY_SIGNATURE_KEY (the notification URL's signatureKey)",
    });
  }
  const timeout = options.timeoutSeconds ?? DEFAULT_NOTIFY_TIMEOUT_SECONDS;
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > NOTIFY_TIMEOUT_LIMIT_SECONDS) {
    throw new AssopayError(
      "usage",
      `assopay notify: --timeout must be a number of seconds above 0 and at most ${NOTIFY_TIMEOUT_LIMIT_SECONDS}, got ${timeout}`,
      {
        hint: `for example --timeout ${DEFAULT_NOTIFY_TIMEOUT_SECONDS} (fractions allowed: 1.5)`,
      },
    );
  }
  const all = (options.contract ?? loadContract()).notificationTypes;
  const wanted = (options.types ?? [])
    .flatMap((t) => t.split(","))
    .map((t) => t.trim())
    .filter((t) => t !== "");
  const types = wanted.map((name) => {
    const found = all.find(
      (t) => t.eventType.toLowerCase() === name.toLowerCase() || t.id === name.toLowerCase(),
    );
    if (!found) {
      throw new AssopayError("usage", `assopay notify: unknown notification type "${name}"`, {
        hint: `types: ${all.map((t) => t.eventType).join(", ")} (an unknown type is always sent as its own case)`,
      });
    }
    return found;
  });
  const unknownEventType = options.unknownEventType ?? "FutureEvent";
  if (all.some((t) => t.eventType === unknownEventType)) {
    throw new AssopayError(
      "usage",
      `assopay notify: "${unknownEventType}" is a known type, not an unknown one`,
      {
        hint: "choose an event type the contract does not list",
      },
    );
  }
  return Object.freeze({
    to: url.href,
    key: options.key,
    types: Object.freeze(types.length > 0 ? [...new Set(types)] : [...all]),
    timeoutMs: Math.max(1, Math.round(timeout * 1000)),
    unknownEventType,
    rules: options.rules ?? loadConsumerRules(),
    strict: options.strict ?? false,
  });
}
