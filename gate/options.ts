import { type ConsumerRules, loadConsumerRules } from "../contracts/consumer-rules.js";
import { type Contract, loadContract } from "../contracts/index.js";
import { parseIsoDay, todayIso } from "../core/dates.js";
import { AssopayError, httpUrl, timeoutMs } from "../core/errors.js";
import { checkHosts } from "../proxy/intercept/hosts.js";
import type { SandboxData, Shapes } from "../sandbox/index.js";
import { parseScenarioNames, type Scenario, type ScenarioName, scenarioByName } from "./scenarios.js";
import { cannotPlay, type UpstreamSpec, urlLogin } from "./upstream.js";

/** Options of {@link runGate}. Only `command` is required. */
export interface GateOptions {
  /**
   * The command to judge, program first; run without a shell, once per scenario.
   * @example { command: ["npm", "run", "test:integration"] }
   */
  command: readonly string[];
  /** Serve these cassettes (a replay) instead of a fresh sandbox per scenario. */
  cassettes?: readonly string[];
  /**
   * Stand in front of this running server instead (the provider's sandbox, a mock, a replay run
   * elsewhere): its root, token at `/oauth2/token` and API under `/v5`. The login comes from `env`
   * (`ASSOPAY_CLIENT_ID`, `ASSOPAY_CLIENT_SECRET`, `ASSOPAY_ORG`, `ASSOPAY_FORM_TYPE`, `ASSOPAY_FORM_SLUG`,
   * optionally the admin pair); the dated scenarios and `growing-listing` are left out.
   * @example { upstream: "https://api.helloasso-sandbox.com", env: process.env }
   */
  upstream?: string;
  /**
   * Hosts the command calls by a hard-coded URL (`api.helloasso.com`): a Node command's requests to them
   * reach the layer through the intercept preload (`ASSOPAY_INTERCEPT_*` and `NODE_OPTIONS` are set for it).
   */
  intercept?: readonly string[];
  /** Other names a request's `Host` may use to reach the layer (a route of your own to it). */
  allowHosts?: readonly string[];
  /** Whose shape the sandbox serves where the seed and the provider's document disagree (default `seed`). */
  shapes?: Shapes;
  /** The date of the undated scenarios, `YYYY-MM-DD` (default: today). Dated scenarios use their own. */
  at?: string;
  /** Scenario names to run (default: all), in any order; they run in the catalogue's order. */
  scenarios?: readonly string[];
  /** Requests allowed per scenario (default 500); past it the command is stopped. */
  maxRequests?: number;
  /** Seconds allowed per scenario (default 60, fractions allowed); past it the command is stopped. */
  timeoutSeconds?: number;
  /** Robustness advice (renewing a token after a 401 …) fails the run instead of warning. */
  strict?: boolean;
  /** Entries of the sandbox's ready-made form (default 65: three full pages, a short one, the empty one). */
  entries?: number;
  /**
   * Your own data for the sandbox (a data file: `buildSandboxData(readDataFile(file), seed)`): the
   * command gets its main form (`ASSOPAY_ORG` …) in every scenario.
   * @example { data: buildSandboxData(readDataFile("my-forms.yaml"), 1) }
   */
  data?: SandboxData;
  /** Seed of the sandbox's data and of the gate's tokens (default 1). */
  seed?: number;
  /** The environment the command inherits, before the `ASSOPAY_*` variables are added (default: none). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Receives each line the command prints (default: dropped).
   * @example { onOutput: (line, scenario) => process.stderr.write(`[${scenario}] ${line}\n`) }
   */
  onOutput?: (line: string, scenario: ScenarioName, stream: "stdout" | "stderr") => void;
  /** Stops the run (the current command is stopped, no further scenario starts). */
  signal?: AbortSignal;
  /**
   * The contract to judge by (default: `loadContract()`); pass one to load it once.
   * @example { contract: loadContract({ timelineFile: "announced.yaml" }) }
   */
  contract?: Contract;
  /**
   * The consumer rules (default: `loadConsumerRules()`).
   * @example { rules: loadConsumerRules("my-consumer-rules.yaml") }
   */
  rules?: ConsumerRules;
}

/**
 * The numeric options, for the resolver and the verb's flags alike: the default (which a usage error
 * gives as its example) and the bounds (`timeoutSeconds`: seconds above 0, fractions allowed, a day).
 */
export const GATE_NUMBERS = Object.freeze({
  maxRequests: { example: 500, min: 1, max: 1_000_000 },
  timeoutSeconds: { example: 60, max: 86_400 },
  entries: { example: 65, min: 0, max: 100_000 },
});

/** A whole number within `min` and `max`, `example` when absent. */
function wholeNumber(
  name: string,
  value: number | undefined,
  { example, min, max }: { example: number; min: number; max: number },
): number {
  const chosen = value ?? example;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    throw new AssopayError(
      "usage",
      `assopay gate: ${name} must be a whole number from ${min} to ${max}, got ${value}`,
      {
        hint: `for example ${name} ${example}`,
      },
    );
  }
  return chosen;
}

/** `--upstream`: an absolute http or https URL, without query or fragment. */
function upstreamUrl(text: string): string {
  const url = httpUrl(text);
  if (url?.search !== "" || url.hash !== "") {
    throw new AssopayError("usage", `assopay gate: --upstream must be an http(s) URL, got "${text}"`, {
      hint: "the service's root, e.g. --upstream https://api.helloasso-sandbox.com",
    });
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * The scenarios to run: those named, else every one the upstream can play. Naming one it cannot play
 * (a dated one against a running server) is a usage error.
 */
function playedScenarios(kind: UpstreamSpec["kind"], names: readonly string[]): Scenario[] {
  const scenarios = parseScenarioNames(names).map(scenarioByName);
  if (names.length === 0) return scenarios.filter((s) => cannotPlay(kind, s) === undefined);
  for (const scenario of scenarios) {
    const why = cannotPlay(kind, scenario);
    if (why !== undefined) {
      throw new AssopayError("usage", `assopay gate: scenario ${scenario.name} cannot run here: ${why}`, {
        hint: "leave it out of --scenario, or run it against the embedded sandbox",
      });
    }
  }
  return scenarios;
}

/** Checks the options once, at the boundary; a mistake is an `AssopayError` (`usage`, exit 2). */
export function resolveGateOptions(options: GateOptions) {
  const [program, ...args] = options.command;
  if (program === undefined || program === "") {
    throw new AssopayError("usage", "assopay gate: no command to run", {
      hint: "put the command after --, e.g. assopay gate -- node scripts/crawl.mjs",
    });
  }
  const cassettes = options.cassettes ?? [];
  const source =
    options.upstream !== undefined ? "--upstream" : cassettes.length > 0 ? "--cassette" : undefined;
  const clash =
    options.upstream !== undefined && cassettes.length > 0
      ? "--cassette"
      : options.data
        ? "--data"
        : options.shapes !== undefined
          ? "--shapes"
          : undefined;
  if (source !== undefined && clash !== undefined) {
    throw new AssopayError("usage", `assopay gate: ${clash} and ${source} exclude each other`, {
      hint: "the layer stands in front of one upstream: the embedded sandbox (--data, --shapes), a replay of cassettes, or a running server",
    });
  }
  const seed = wholeNumber("--seed", options.seed, { example: 1, min: 0, max: Number.MAX_SAFE_INTEGER });
  const upstream: UpstreamSpec =
    options.upstream !== undefined
      ? { kind: "url", url: upstreamUrl(options.upstream), login: Object.freeze(urlLogin(options.env ?? {})) }
      : cassettes.length > 0
        ? { kind: "replay", cassettes: Object.freeze([...cassettes]) }
        : {
            kind: "sandbox",
            entries: wholeNumber("--entries", options.entries, GATE_NUMBERS.entries),
            seed,
            shapes: options.shapes ?? "seed",
            ...(options.data ? { data: options.data } : {}),
          };
  const intercept = [...checkHosts(options.intercept ?? [], "--intercept")];
  return Object.freeze({
    command: Object.freeze({ command: program, args: Object.freeze(args) }),
    upstream: Object.freeze(upstream),
    /** Hosts intercepted for the command (checked, lower case). */
    intercept: Object.freeze(intercept),
    /** Every name the layer answers for besides the loopback ones. */
    allowHosts: Object.freeze([...(options.allowHosts ?? []), ...intercept]),
    at: options.at === undefined ? todayIso() : parseIsoDay(options.at),
    scenarios: Object.freeze(playedScenarios(upstream.kind, options.scenarios ?? [])),
    maxRequests: wholeNumber("--max-requests", options.maxRequests, GATE_NUMBERS.maxRequests),
    timeoutMs: timeoutMs("gate", options.timeoutSeconds, GATE_NUMBERS.timeoutSeconds),
    seed,
    env: Object.freeze({ ...(options.env ?? {}) }),
    onOutput: options.onOutput ?? (() => undefined),
    signal: options.signal,
    contract: options.contract ?? loadContract(),
    rules: options.rules ?? loadConsumerRules(),
    strict: options.strict ?? false,
  });
}

/** The options once checked: frozen, every default filled in. */
export type ResolvedGateOptions = ReturnType<typeof resolveGateOptions>;
