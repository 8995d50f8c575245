import { type ConsumerRules, loadConsumerRules } from "../contracts/consumer-rules.js";
import { type Contract, loadContract } from "../contracts/index.js";
import { AssopayError, commaList, httpUrl, timeoutMs } from "../core/errors.js";
import type { CommandLine } from "../core/run-command.js";
import type { ReconcileApi } from "./api.js";
import { fetchBlockedPort } from "./blocked-ports.js";

/** A notification a session received, as recorded (`notify --cassette`): its redacted body bytes. */
export interface RecordedNotification {
  /** Its place in the recording (the cassette document's `id`). */
  readonly id: number;
  readonly body: Buffer;
}

/**
 * Options of {@link runNotify}. `to` is required, and `key` (a partner's signed notifications) or
 * `urlSecret` (an association's unsigned ones, which need `api`), or both.
 */
export interface NotifyOptions {
  /** The receiver's URL, `http` or `https`. */
  to: string;
  /** The signing key the receiver verifies with (the notification URL's `signatureKey`). */
  key?: string;
  /**
   * The secret part of `to` (a path segment, a query value) by which an unsigned receiver knows the
   * service: sent wrong and missing, it must be refused.
   * @example { to: "http://127.0.0.1:3000/hook/s3cr3t", urlSecret: "s3cr3t" }
   */
  urlSecret?: string;
  /**
   * The API the receiver reconciles notifications against. Unsigned notifications must each be
   * confirmed through it (`GET /v5/payments/{id}`, `/v5/orders/{id}`) before they are acknowledged.
   * @example { api: { url: sandbox.url, client: sandbox.credentials.admin, organizationSlug, env, answered } }
   */
  api?: ReconcileApi;
  /**
   * The receiver as a command, run until the battery is sent, with the API's address and credentials in
   * its environment (`ASSOPAY_BASE_URL` …) and the port of `to` as `PORT`.
   * @example { command: ["node", "receiver.mjs"] }
   */
  command?: readonly string[];
  /** The environment the command starts from (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives each line the command writes. */
  onOutput?: (line: string, stream: "stdout" | "stderr") => void;
  /**
   * Send these recorded notifications, in this order, instead of the battery.
   * @example { recorded: [{ id: 4, body: Buffer.from('{"eventType":"Order","data":{…}}') }] }
   */
  recorded?: readonly RecordedNotification[];
  /** The notification types to send signed, by event type or id (default: every type of the contract). */
  types?: readonly string[];
  /**
   * The service's wait: seconds to wait for each answer (default 15, as the service is reported to wait;
   * fractions allowed). A later answer is a failure, as the service then sends the notification again.
   */
  timeoutSeconds?: number;
  /** The event type standing for a future, unknown one (default `FutureEvent`). */
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
  /** Robustness advice (accepting a repeated delivery) fails the run instead of warning. */
  strict?: boolean;
}

/** `--timeout`, the service's wait in seconds: its default (a usage error's example) and its largest. */
export const NOTIFY_TIMEOUT = Object.freeze({ example: 15, max: 600 });

function commandLine(argv: readonly string[] | undefined): CommandLine | undefined {
  if (argv === undefined) return undefined;
  const [command, ...args] = argv;
  if (command === undefined || command === "") {
    throw new AssopayError("usage", "assopay notify: nothing to run after --", {
      hint: "give the receiver's program and its arguments after --, e.g. -- node receiver.mjs",
    });
  }
  return { command, args };
}

/** Checks the options once; a mistake is an `AssopayError` (`usage`, exit 2). */
export function resolveNotifyOptions(options: NotifyOptions) {
  if (!URL.canParse(options.to)) {
    throw new AssopayError("usage", `assopay notify: --to must be a URL, got "${options.to}"`, {
      hint: "for example --to http://127.0.0.1:3000/webhooks/helloasso",
    });
  }
  const url = httpUrl(options.to);
  if (!url) {
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
  if (options.key === undefined && options.urlSecret === undefined) {
    throw new AssopayError("usage", "assopay notify: --key KEY or --url-secret SECRET is required", {
      hint: "--key for a partner's signed notifications (the URL's signatureKey), --url-secret for an association's unsigned ones (the secret part of --to)",
    });
  }
  if (
    options.urlSecret !== undefined &&
    (options.urlSecret === "" || !url.href.includes(options.urlSecret))
  ) {
    throw new AssopayError(
      "usage",
      `assopay notify: --to must contain the URL secret, and "${options.urlSecret}" is not in "${url.href}"`,
      { hint: "for example --to http://127.0.0.1:3000/hook/s3cr3t --url-secret s3cr3t" },
    );
  }
  if (options.key === undefined && options.api === undefined) {
    throw new AssopayError(
      "usage",
      "assopay notify: an unsigned receiver is judged on reconciling each notification through the API, and no API is served",
      {
        hint: "run the receiver as a command after --, so that notify serves it the API: -- node receiver.mjs",
      },
    );
  }
  const waitMs = timeoutMs("notify", options.timeoutSeconds, NOTIFY_TIMEOUT);
  const all = (options.contract ?? loadContract()).notificationTypes;
  const types = commaList(options.types ?? []).map((name) => {
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
    urlSecret: options.urlSecret,
    api: options.api,
    command: commandLine(options.command),
    env: options.env ?? process.env,
    onOutput: options.onOutput ?? (() => undefined),
    recorded: options.recorded,
    types: Object.freeze(types.length > 0 ? [...new Set(types)] : [...all]),
    timeoutMs: waitMs,
    unknownEventType,
    rules: options.rules ?? loadConsumerRules(),
    strict: options.strict ?? false,
  });
}

/** The options once checked: frozen, every default filled in. */
export type ResolvedNotifyOptions = ReturnType<typeof resolveNotifyOptions>;
