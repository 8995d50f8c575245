import { type ConsumerRules, loadConsumerRules } from "../contracts/consumer-rules.js";
import { type Contract, loadContract } from "../contracts/index.js";
import { type IsoDay, parseIsoDay, todayIso } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import type { CommandLine } from "../core/run-command.js";
import type { SandboxData } from "../sandbox/index.js";
import { parseScenarioNames, type Scenario, type ScenarioName, scenarioByName } from "./scenarios.js";
import type { UpstreamSpec } from "./upstream.js";

/** Options of {@link runGate}. Only `command` is required. */
export interface GateOptions {
  /**
   * The command to judge, program first; run without a shell, once per scenario.
   * @example { command: ["npm", "run", "test:integration"] }
   */
  command: readonly string[];
  /**
   * Serve these cassettes (a replay) instead of a fresh sandbox per scenario.
   * @example { cassettes: ["recordings/crawl.yaml"] }
   */
  cassettes?: readonly string[];
  /**
   * The date of the undated scenarios, `YYYY-MM-DD` (default: today). Dated scenarios use their own.
   * @example { at: "2025-04-01" }
   */
  at?: string;
  /**
   * Scenario names to run (default: all), in any order; they run in the catalogue's order.
   * @example { scenarios: ["uniform", "tricky-tokens"] }
   */
  scenarios?: readonly string[];
  /**
   * Requests allowed per scenario (default 500); past it the command is stopped.
   * @example { maxRequests: 200 }
   */
  maxRequests?: number;
  /**
   * Seconds allowed per scenario (default 60, fractions allowed); past it the command is stopped.
   * @example { timeoutSeconds: 120 }
   */
  timeoutSeconds?: number;
  /**
   * Robustness advice (renewing a token after a 401 …) fails the run instead of warning.
   * @example { strict: true }
   */
  strict?: boolean;
  /**
   * Entries of the sandbox's ready-made form (default 65: three full pages, a short one, the empty one).
   * @example { entries: 45 }
   */
  entries?: number;
  /**
   * Your own data for the sandbox (a data file: `buildSandboxData(readDataFile(file), seed)`): the
   * command gets its main form (`ASSOPAY_ORG` …) in every scenario.
   * @example { data: buildSandboxData(readDataFile("my-forms.yaml"), 1) }
   */
  data?: SandboxData;
  /**
   * Seed of the sandbox's data and of the gate's tokens (default 1).
   * @example { seed: 7 }
   */
  seed?: number;
  /**
   * The environment the command inherits, before the `ASSOPAY_*` variables are added (default: none).
   * @example { env: process.env }
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Receives each line the command prints (default: dropped).
   * @example { onOutput: (line, scenario) => process.stderr.write(`[${scenario}] ${line}\n`) }
   */
  onOutput?: (line: string, scenario: ScenarioName, stream: "stdout" | "stderr") => void;
  /**
   * Stops the run (the current command is stopped, no further scenario starts).
   * @example { signal: AbortSignal.timeout(600_000) }
   */
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

/** The options once checked: frozen, every default filled in. */
export interface ResolvedGateOptions {
  readonly command: CommandLine;
  readonly upstream: UpstreamSpec;
  readonly at: IsoDay;
  readonly scenarios: readonly Scenario[];
  readonly maxRequests: number;
  readonly timeoutMs: number;
  readonly seed: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly onOutput: (line: string, scenario: ScenarioName, stream: "stdout" | "stderr") => void;
  readonly signal: AbortSignal | undefined;
  readonly contract: Contract;
  readonly rules: ConsumerRules;
  readonly strict: boolean;
}

export const DEFAULT_MAX_REQUESTS = 500;
export const DEFAULT_TIMEOUT_SECONDS = 60;
export const DEFAULT_ENTRIES = 65;
/** The largest `--max-requests`, `--timeout` (seconds, a day) and `--entries` a run takes. */
export const GATE_LIMITS = Object.freeze({
  maxRequests: 1_000_000,
  timeoutSeconds: 86_400,
  entries: 100_000,
});

function wholeNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    throw new AssopayError(
      "usage",
      `assopay gate: ${name} must be a whole number from ${min} to ${max}, got ${value}`,
      {
        hint: `for example ${name} ${fallback}`,
      },
    );
  }
  return chosen;
}

/** `--timeout`: seconds above 0 (fractions allowed), at most a day, as milliseconds. */
function timeLimitMs(seconds: number | undefined): number {
  const chosen = seconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (!Number.isFinite(chosen) || chosen <= 0 || chosen > GATE_LIMITS.timeoutSeconds) {
    throw new AssopayError(
      "usage",
      `assopay gate: --timeout must be a number of seconds above 0 and at most ${GATE_LIMITS.timeoutSeconds}, got ${seconds}`,
      { hint: `for example --timeout ${DEFAULT_TIMEOUT_SECONDS} (fractions allowed: 1.5)` },
    );
  }
  return Math.max(1, Math.round(chosen * 1000));
}

/** Checks the options once, at the boundary; a mistake is an `AssopayError` (`usage`, exit 2). */
export function resolveGateOptions(options: GateOptions): ResolvedGateOptions {
  const [program, ...args] = options.command;
  if (program === undefined || program === "") {
    throw new AssopayError("usage", "assopay gate: no command to run", {
      hint: "put the command after --, e.g. assopay gate -- node scripts/crawl.mjs",
    });
  }
  const cassettes = options.cassettes ?? [];
  if (cassettes.length > 0 && options.data) {
    throw new AssopayError("usage", "assopay gate: --data and --cassette exclude each other", {
      hint: "--data is the sandbox's data; a replay serves what its cassettes hold",
    });
  }
  const seed = wholeNumber("--seed", options.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const upstream: UpstreamSpec =
    cassettes.length > 0
      ? { kind: "replay", cassettes: Object.freeze([...cassettes]) }
      : {
          kind: "sandbox",
          entries: wholeNumber("--entries", options.entries, DEFAULT_ENTRIES, 0, GATE_LIMITS.entries),
          seed,
          ...(options.data ? { data: options.data } : {}),
        };
  return Object.freeze({
    command: Object.freeze({ command: program, args: Object.freeze(args) }),
    upstream: Object.freeze(upstream),
    at: options.at === undefined ? todayIso() : parseIsoDay(options.at),
    scenarios: Object.freeze(parseScenarioNames(options.scenarios ?? []).map(scenarioByName)),
    maxRequests: wholeNumber(
      "--max-requests",
      options.maxRequests,
      DEFAULT_MAX_REQUESTS,
      1,
      GATE_LIMITS.maxRequests,
    ),
    timeoutMs: timeLimitMs(options.timeoutSeconds),
    seed,
    env: Object.freeze({ ...(options.env ?? {}) }),
    onOutput: options.onOutput ?? (() => undefined),
    signal: options.signal,
    contract: options.contract ?? loadContract(),
    rules: options.rules ?? loadConsumerRules(),
    strict: options.strict ?? false,
  });
}
