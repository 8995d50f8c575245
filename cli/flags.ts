import { type ParseArgsConfig, parseArgs } from "node:util";
import { type IsoDay, parseIsoDay } from "../core/dates.js";
import { AssopayError, isAssopayError } from "../core/errors.js";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

export interface ParsedFlags {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/**
 * Parses a verb's flags strictly. An unknown flag or a missing value is a usage error naming the verb,
 * with a hint to its `--help`. `--help` itself is always accepted.
 */
export function parseFlags(
  verb: string,
  argv: readonly string[],
  options: FlagSpec,
  allowPositionals = false,
): ParsedFlags {
  try {
    const parsed = parseArgs({
      args: attachNegativeNumbers(argv, options),
      options: { help: { type: "boolean", short: "h" }, ...options },
      strict: true,
      allowPositionals,
    });
    return { values: parsed.values as ParsedFlags["values"], positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify.*$/s, "") : String(error);
    throw new AssopayError("usage", `assopay ${verb}: ${message}`, { hint: `run 'assopay ${verb} --help'` });
  }
}

/**
 * `--port -1` as `--port=-1`: Node's parser takes a value starting with a dash for a flag and calls it
 * ambiguous, so the verb's own check (with its sentence and hint) never saw the number.
 */
function attachNegativeNumbers(argv: readonly string[], options: FlagSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const next = argv[i + 1];
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith("--") ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** A string flag, or the environment variable standing in for it, or the default. */
export function stringFlag(
  flags: ParsedFlags,
  name: string,
  env?: { vars: Readonly<Record<string, string | undefined>>; name: string },
): string | undefined {
  const value = flags.values[name];
  if (typeof value === "string") return value;
  if (env) return env.vars[env.name];
  return undefined;
}

/** A flag that may be given several times. */
export function listFlag(flags: ParsedFlags, name: string): string[] {
  const value = flags.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

/**
 * A numeric flag as its messages name it: the verb, the flag (without dashes), its bounds and an example
 * that fits it (shown as `for example --FLAG EXAMPLE`, unless `hint` says more).
 */
export interface NumberFlag {
  verb: string;
  flag: string;
  /** Smallest value accepted (whole numbers; default 1). */
  min?: number;
  /** Largest value accepted (default: none for seconds, `Number.MAX_SAFE_INTEGER` for whole numbers). */
  max?: number;
  example: number | string;
  /** A hint in place of the example. */
  hint?: string;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

function refuse(spec: NumberFlag, what: string, text: string): AssopayError {
  return new AssopayError("usage", `assopay ${spec.verb}: --${spec.flag} must be ${what}, got "${text}"`, {
    hint: spec.hint ?? `for example --${spec.flag} ${spec.example}`,
  });
}

function wholeRange(min: number, max: number | undefined): string {
  if (max !== undefined) return `from ${min} to ${max}`;
  return min === 1 ? "above 0" : `of at least ${min}`;
}

/**
 * A whole number (digits only: no sign, fraction, exponent or hex) within the flag's bounds; `undefined`
 * when the flag is absent; a usage error (exit 2) naming the verb, the flag and an example otherwise.
 *
 * @example wholeNumberFlag("25", { verb: "sandbox", flag: "entries", min: 0, max: 1_000_000, example: 300 }) // 25
 */
export function wholeNumberFlag(text: string | undefined, spec: NumberFlag): number | undefined {
  if (text === undefined) return undefined;
  const min = spec.min ?? 1;
  const value = Number(text.trim());
  const inRange =
    Number.isSafeInteger(value) && value >= min && (spec.max === undefined || value <= spec.max);
  if (!WHOLE.test(text.trim()) || !inRange)
    throw refuse(spec, `a whole number ${wholeRange(min, spec.max)}`, text);
  return value;
}

/**
 * A number of seconds above 0, fractions allowed (`30`, `1.5`, `.5`), at most `max` when given; the same
 * unit for every verb's `--timeout`. `undefined` when absent; a usage error (exit 2) otherwise.
 *
 * @example secondsFlag("1.5", { verb: "gate", flag: "timeout", example: 60 }) // 1.5
 */
export function secondsFlag(text: string | undefined, spec: NumberFlag): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text.trim());
  const inRange = seconds > 0 && (spec.max === undefined || seconds <= spec.max);
  if (!DECIMAL.test(text.trim()) || !inRange) {
    const bound = spec.max === undefined ? "" : ` and at most ${spec.max}`;
    throw refuse(
      { ...spec, hint: spec.hint ?? `for example --${spec.flag} ${spec.example} (fractions allowed: 1.5)` },
      `a number of seconds above 0${bound}`,
      text,
    );
  }
  return seconds;
}

/**
 * `--seed N` (sandbox, gate): the seed of the generated data, any whole number from 0.
 *
 * @example seedFlag("sandbox", "42") // 42
 */
export function seedFlag(verb: string, text: string | undefined): number | undefined {
  return wholeNumberFlag(text, {
    verb,
    flag: "seed",
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    example: 42,
    hint: "for example --seed 42: any whole number, the same one gives the same data",
  });
}

/** Seconds as whole milliseconds, at least 1 (what timers take). */
export function secondsToMs(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * A port from 0 to 65535 (0: any free port); `fallback` when absent.
 *
 * @example portFlag("replay", "0", 8471) // 0
 */
export function portFlag(
  verb: string,
  text: string | undefined,
  fallback: number,
  flag = "port",
  hint = `use --${flag} 0 to take any free port`,
): number {
  return wholeNumberFlag(text, { verb, flag, min: 0, max: 65_535, example: 0, hint }) ?? fallback;
}

/**
 * A calendar day written YYYY-MM-DD (`--at`, `--since` …); `undefined` when absent.
 *
 * @example dateFlag("lint", "2025-06-15") // "2025-06-15"
 */
export function dateFlag(verb: string, text: string | undefined, flag = "at"): IsoDay | undefined {
  if (text === undefined) return undefined;
  try {
    return parseIsoDay(text, `--${flag}`);
  } catch (error) {
    if (!isAssopayError(error)) throw error;
    throw new AssopayError("usage", `assopay ${verb}: ${error.message}`, { hint: error.hint });
  }
}

/** Parses a value that must be one of a closed set. */
export function choiceFlag<T extends string>(
  verb: string,
  flag: string,
  text: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new AssopayError(
    "usage",
    `assopay ${verb}: --${flag} must be one of ${choices.join(", ")}, got "${text}"`,
    {
      hint: `for example --${flag} ${fallback}`,
    },
  );
}

/** The flag every server verb takes: `--allow-host NAME`, repeatable. */
export const ALLOW_HOST_FLAGS: FlagSpec = { "allow-host": { type: "string", multiple: true } };

/** Its line in the servers' help. */
export const ALLOW_HOST_HELP = `  --allow-host NAME     also answer requests whose Host is NAME (repeatable): a tunnel's or a LAN
                        name. Without it only Host 127.0.0.1, localhost and [::1] is answered (421
                        otherwise), so a DNS-rebinding web page cannot reach it`;

/** The `--allow-host` values, comma-separated lists split. */
export function allowHostsFlag(flags: ParsedFlags): string[] {
  return listFlag(flags, "allow-host").flatMap((list) =>
    list.split(",").filter((name) => name.trim() !== ""),
  );
}
