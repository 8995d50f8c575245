import { AssopayError } from "../../core/errors.js";
import type { MatchRule } from "../cassette/format.js";
import { fileOf } from "../cassette/lock.js";
import { ignoreEvents, type ProxyEventSink } from "../events.js";
import { checkHttpUrl } from "../options.js";
import { redactEvents } from "../redaction/log.js";
import { createRedactor } from "../redaction/redactor.js";
import { resolveServerOptions, type ServerOptions } from "../replay/options.js";

/**
 * Record modes, as VCR-style tools name them:
 * - `once`: record only when the cassette does not exist yet; when it does, serve it and refuse (501)
 *   anything it does not hold, without calling the upstream;
 * - `new`: serve what the cassette holds, forward and append everything else;
 * - `all`: record everything again into a new file, which replaces the cassette when the recorder stops;
 *   the replaced one is kept as `<cassette>.previous-<time>` (the `keep` newest such versions stay).
 */
export type RecordMode = "once" | "new" | "all";

export const RECORD_MODES: readonly RecordMode[] = ["once", "new", "all"];

/** Earlier versions kept by `--mode all` unless told otherwise. */
export const DEFAULT_KEEP = 3;

/** The path of the proxy that relays notifications, when none is given. */
export const DEFAULT_NOTIFICATION_PATH = "/__assopay/notifications";

/**
 * The default bound on a cassette's size: 256 MiB. Replay holds every interaction in memory; at this size
 * it loads in a few seconds with the default Node.js heap.
 */
export const DEFAULT_MAX_CASSETTE_BYTES = 256 * 1024 * 1024;

/** How long the upstream may stay silent before the recorder answers 504, unless told otherwise. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Options of {@link startRecorder}. */
export interface RecorderOptions extends ServerOptions {
  /**
   * The one service every request is forwarded to (scheme, host, port, optional base path).
   * @example { upstream: "https://api.helloasso-sandbox.com" }
   */
  upstream: string | URL;
  /**
   * The cassette file to write (YAML, created with its folder's permissions).
   * @example { cassette: "recordings/checkout.yaml" }
   */
  cassette: string;
  /**
   * `once` (default), `new` or `all`; see {@link RecordMode}.
   * @example { mode: "new" }
   */
  mode?: RecordMode;
  /**
   * Mode `all`: how many earlier versions of the cassette to keep (default 3, at least 1).
   * @example { mode: "all", keep: 5 }
   */
  keep?: number;
  /**
   * Replace payer and user first names, last names and e-mails by stable fakes of the same shape.
   * @example { redactPii: true }
   */
  redactPii?: boolean;
  /**
   * The proxy path to register as a notification URL (default `/__assopay/notifications`); notifications
   * sent to it (or below it) are recorded and forwarded to `notifyForward`.
   * @example { notificationPath: "/hooks/helloasso" }
   */
  notificationPath?: string;
  /**
   * The integrator's own notification receiver; its answer goes back to the service. Without it, the
   * proxy answers 204 itself.
   * @example { notifyForward: "http://127.0.0.1:3000/webhooks/helloasso" }
   */
  notifyForward?: string | URL;
  /**
   * Signing keys to verify notifications with, besides those the proxy sees in `GET /v5/partners/me`
   * and notification URL registrations passing through it.
   * @example { signatureKeys: [process.env.HA_SIGNATURE_KEY ?? ""] }
   */
  signatureKeys?: readonly string[];
  /**
   * Largest request or response body, in bytes (default 50 MB). Over it the request gets a 413 problem,
   * the response a 502 problem (or, once streaming has begun, a cut connection); nothing is recorded.
   * @example { maxBodyBytes: 10_000_000 }
   */
  maxBodyBytes?: number;
  /**
   * The bound on the cassette's size in bytes (default 256 MiB, {@link DEFAULT_MAX_CASSETTE_BYTES}). The
   * recorder warns at 80%; at the bound it stops recording and answers new requests 507 (see
   * `docs/cassettes.md`).
   * @example { maxCassetteBytes: 64 * 1024 * 1024 }
   */
  maxCassetteBytes?: number;
  /**
   * How long the upstream may stay silent, in milliseconds (default 30 000); then the client gets a 504.
   * @example { upstreamTimeoutMs: 5000 }
   */
  upstreamTimeoutMs?: number;
  /**
   * A salt for the secret placeholders (default: none, a public key; see `docs/cassettes.md`).
   * @example { secretSalt: process.env.ASSOPAY_CASSETTE_SALT }
   */
  secretSalt?: string;
  /**
   * Report every recorded exchange to `onEvent` (default true); false reports only problems.
   * @example { reportExchanges: false }
   */
  reportExchanges?: boolean;
  /**
   * Matching rules written into a new cassette's header (`--ignore`, `--match`), so that its replay
   * applies them without flags; mode `new` applies them to what it serves too.
   * @example { matchRules: [{ field: "body.returnUrl", rule: "ignore" }] }
   */
  matchRules?: readonly MatchRule[];
  /**
   * Called for every recorded exchange, upstream failure, refusal and warning.
   * @example { onEvent: (event) => console.error(event.message) }
   */
  onEvent?: ProxyEventSink;
}

function checkMaxCassette(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CASSETTE_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new AssopayError("usage", `the cassette bound must be a positive number of bytes, got ${value}`, {
      hint: "for example --max-cassette-bytes 268435456 (256 MiB)",
    });
  }
  return value;
}

/** Checks the options once, at the boundary; a mistake is an `AssopayError` ('usage'). */
export function resolveRecorderOptions(options: RecorderOptions) {
  const mode = options.mode ?? "once";
  if (!RECORD_MODES.includes(mode)) {
    throw new AssopayError("usage", `mode must be one of ${RECORD_MODES.join(", ")}, got "${String(mode)}"`, {
      hint: "once records a new cassette, new appends to one, all records it again",
    });
  }
  if (!options.cassette) {
    throw new AssopayError("usage", "the recorder needs a cassette path", { hint: "pass --cassette PATH" });
  }
  const path = options.notificationPath ?? DEFAULT_NOTIFICATION_PATH;
  if (!/^\/[^?#]*$/.test(path) || path === "/") {
    throw new AssopayError("usage", `the notification path must be a path below /, got "${path}"`, {
      hint: `for example ${DEFAULT_NOTIFICATION_PATH}`,
    });
  }
  const keep = options.keep ?? DEFAULT_KEEP;
  if (!Number.isInteger(keep) || keep < 1) {
    throw new AssopayError("usage", `keep must be a whole number of versions, at least 1, got ${keep}`, {
      hint: "for example --keep 3: the last good recording is always kept",
    });
  }
  const timeout = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new AssopayError(
      "usage",
      `the upstream timeout must be a positive number of milliseconds, got ${timeout}`,
    );
  }
  return Object.freeze({
    upstream: checkHttpUrl(options.upstream, "--upstream"),
    cassette: fileOf(options.cassette),
    ...resolveServerOptions(options),
    mode,
    keep,
    redactPii: options.redactPii ?? false,
    notificationPath: path.replace(/\/+$/, ""),
    notifyForward: options.notifyForward
      ? checkHttpUrl(options.notifyForward, "--notify-forward")
      : undefined,
    signatureKeys: Object.freeze((options.signatureKeys ?? []).filter((k) => k !== "")),
    maxCassetteBytes: checkMaxCassette(options.maxCassetteBytes),
    upstreamTimeoutMs: timeout,
    reportExchanges: options.reportExchanges ?? options.onEvent !== undefined,
    // What the recorder reports goes through a redactor of the cassette's settings (see `redactEvents`).
    onEvent:
      options.onEvent === undefined
        ? ignoreEvents
        : redactEvents(
            options.onEvent,
            createRedactor(options.secretSalt || undefined, options.redactPii ?? false, false),
          ),
  });
}

/** The options once checked: frozen, every default filled in. */
export type ResolvedRecorderOptions = ReturnType<typeof resolveRecorderOptions>;
