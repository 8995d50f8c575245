import type { Contract } from "../../contracts/types.js";
import { parseIsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { type AllowHostOptions, checkAllowHosts } from "../../core/http/local-guard.js";
import type { MatchRule } from "../cassette/format.js";
import { ignoreEvents, type ProxyEventSink } from "../events.js";
import { defaultCaDir } from "../forward/ca-dir.js";
import type { InterceptionOptions } from "../forward/interception.js";
import { checkMaxBody, checkPort } from "../options.js";
import { matchRulesOption } from "./match-rules.js";
import type { TimelineView } from "./timeline.js";

/** What the recorder's and the replay's options share: where to listen, the hosts to intercept and answer. */
export interface ServerOptions extends InterceptionOptions, AllowHostOptions {
  /**
   * The port to listen on; 0 (the default) takes any free port.
   * @example { port: 8471 }
   */
  port?: number;
  /**
   * The address to listen on (default `127.0.0.1`).
   * @example { host: "0.0.0.0" }
   */
  host?: string;
  /**
   * @deprecated The same as `matchRules`, its name before: `matchRules` wins when both are given.
   */
  rules?: readonly MatchRule[];
}

/** Options of {@link startReplay}. */
export interface ReplayOptions extends ServerOptions {
  /**
   * The cassette file(s) to serve. Interactions of several cassettes are merged, in the order given.
   * @example { cassettes: ["recordings/pagination-crawl.yaml", "recordings/public-form.yaml"] }
   */
  cassettes: string | readonly string[];
  /**
   * Serve what the service answers at this date (`YYYY-MM-DD`): counts removed or -1 on the count
   * deprecation routes, v3 routes answering 404 after their switch-off. Default: responses as recorded.
   * @example { at: "2025-07-01" }
   */
  at?: string;
  /**
   * The contract whose route catalogue and timeline `at` applies (default: the package's own contract,
   * loaded when `at` is given).
   * @example { at: "2025-07-01", contract: loadContract({ timelineFile: "my-timeline.yaml" }) }
   */
  contract?: Pick<Contract, "routes" | "timeline">;
  /**
   * The salt the cassettes were recorded with, if any (see `docs/cassettes.md`, "Secrets").
   * @example { secretSalt: process.env.ASSOPAY_CASSETTE_SALT }
   */
  secretSalt?: string;
  /**
   * Largest request body accepted, in bytes (default 50 MB); larger ones get a 413 problem.
   * @example { maxBodyBytes: 1_000_000 }
   */
  maxBodyBytes?: number;
  /**
   * Keep the recorded service's origin in responses (bodies, `Location`, `Link`) instead of rewriting it
   * to the replay's own, so that a client following a recorded URL goes to the service.
   * @example { keepOrigins: true }
   */
  keepOrigins?: boolean;
  /**
   * Matching rules besides those stored in the cassette headers (`--ignore`, `--match`; see
   * `parseIgnore` and `parseMatch`). A rule for a field the header names too wins. Match rules say how a
   * request is compared with the recordings; they are not the timeline's dated rules (`at`).
   * @example { matchRules: [{ field: "body.metadata.memberId", rule: "ignore" }, { field: "body.amount", rule: "type" }] }
   */
  matchRules?: readonly MatchRule[];
  /**
   * Called for every replayed request, miss and warning.
   * @example { onEvent: (event) => console.error(event.message) }
   */
  onEvent?: ProxyEventSink;
}

/** Checks the options once, at the boundary; a mistake is an `AssopayError` ('usage'). */
export function resolveReplayOptions(options: ReplayOptions) {
  const cassettes = typeof options.cassettes === "string" ? [options.cassettes] : [...options.cassettes];
  if (cassettes.length === 0) {
    throw new AssopayError("usage", "replay needs at least one cassette", {
      hint: "pass --cassette PATH (several may be given)",
    });
  }
  return Object.freeze({
    cassettes: Object.freeze(cassettes),
    ...resolveServerOptions(options),
    at: options.at === undefined ? undefined : parseIsoDay(options.at),
    contract: options.contract,
    keepOrigins: options.keepOrigins === true,
    onEvent: options.onEvent ?? ignoreEvents,
  });
}

/** What the recorder and the replay check alike: where to listen, the body limit, salt, rules and hosts. */
export function resolveServerOptions(options: Omit<ReplayOptions, "cassettes">) {
  return {
    port: checkPort(options.port, 0),
    host: options.host ?? "127.0.0.1",
    secretSalt: options.secretSalt || undefined,
    maxBodyBytes: checkMaxBody(options.maxBodyBytes),
    matchRules: matchRulesOption(options),
    intercept: Object.freeze([...(options.intercept ?? [])]),
    caDir: options.caDir ?? defaultCaDir(process.env),
    allowHosts: checkAllowHosts(options.allowHosts),
  };
}

/** The contract view `at` needs: the given one, else the package's own. */
export async function timelineView(
  options: Pick<ResolvedReplayOptions, "at" | "contract">,
): Promise<TimelineView | undefined> {
  if (options.at === undefined) return undefined;
  if (options.contract) return options.contract;
  const { loadContract } = await import("../../contracts/index.js");
  return loadContract();
}

/** The options once checked: frozen, every default filled in. */
export type ResolvedReplayOptions = ReturnType<typeof resolveReplayOptions>;
