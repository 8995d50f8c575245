import type { Writable } from "node:stream";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { type Timeline, type TimelineDate, timelineBoundaries } from "../contracts/index.js";
import { type IsoDay, parseIsoDay, todayIso } from "../core/dates.js";
import { AssopayError, commaList, isAssopayError } from "../core/errors.js";
import { type Report, type ReporterName, useColor, writeReport } from "../report/index.js";
import type { CommandContext } from "./command.js";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

/**
 * A verb's flags as one table, a word per flag: `name=` takes a value, `name*` takes one and may be
 * given several times, a bare `name` is a switch.
 * @example flagTable("out= cassette* force") // { out: { type: "string" }, cassette: { type: "string", multiple: true }, force: { type: "boolean" } }
 */
export function flagTable(table: string): FlagSpec {
  return Object.fromEntries(
    table
      .split(/\s+/)
      .filter((word) => word !== "")
      .map((word) => {
        const name = word.replace(/[=*]$/, "");
        if (word.endsWith("*")) return [name, { type: "string", multiple: true }];
        return [name, { type: word.endsWith("=") ? "string" : "boolean" }];
      }),
  );
}

export interface ParsedFlags {
  /** The verb they were given to, as its messages name it. */
  verb: string;
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
  table: FlagSpec | string,
  allowPositionals = false,
): ParsedFlags {
  const options = typeof table === "string" ? flagTable(table) : table;
  try {
    const parsed = parseArgs({
      args: attachNegativeNumbers(argv, options),
      options: { help: { type: "boolean", short: "h" }, ...options },
      strict: true,
      allowPositionals,
    });
    return { verb, values: parsed.values as ParsedFlags["values"], positionals: parsed.positionals };
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

/** A value the verb cannot run without (`what`, a flag or an argument): a usage error when absent or empty. */
export function required(verb: string, what: string, value: string | undefined, example: string): string {
  if (value === undefined || value === "")
    throw new AssopayError("usage", `assopay ${verb}: ${what} is required`, {
      hint: `for example ${example}`,
    });
  return value;
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

/** The bounds and example of a numeric flag of the verb `flags` were parsed for. */
type Bounds = Omit<NumberFlag, "verb" | "flag">;

/** `--FLAG N` as {@link wholeNumberFlag} reads it, for the verb `flags` were parsed for. */
export function wholeFlag(flags: ParsedFlags, flag: string, bounds: Bounds): number | undefined {
  return wholeNumberFlag(stringFlag(flags, flag), { verb: flags.verb, flag, ...bounds });
}

/** `--FLAG SECONDS` as {@link secondsFlag} reads it, for the verb `flags` were parsed for. */
export function secondsOf(flags: ParsedFlags, flag: string, bounds: Bounds): number | undefined {
  return secondsFlag(stringFlag(flags, flag), { verb: flags.verb, flag, ...bounds });
}

/** `--FLAG SECONDS` as {@link secondsOf} reads it, in whole milliseconds, at least 1 (what timers take). */
export function millisecondsOf(flags: ParsedFlags, flag: string, bounds: Bounds): number | undefined {
  const seconds = secondsOf(flags, flag, bounds);
  return seconds === undefined ? undefined : Math.max(1, Math.round(seconds * 1000));
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

/** `--shapes seed|document`: whose shape is served and judged where the seed and the document disagree. */
export function shapesFlag(verb: string, flags: ParsedFlags): "seed" | "document" {
  return choiceFlag(verb, "shapes", stringFlag(flags, "shapes"), ["seed", "document"] as const, "seed");
}

/** The flag every server verb takes: `--allow-host NAME`, repeatable; its line in the servers' help. */
export const ALLOW_HOST_HELP = `  --allow-host NAME     also answer requests whose Host is NAME (repeatable): a tunnel's or a LAN
                        name. Without it only Host 127.0.0.1, localhost and [::1] is answered (421
                        otherwise), so a DNS-rebinding web page cannot reach it`;

/** The `--allow-host` values, comma-separated lists split and trimmed. */
export function allowHostsFlag(flags: ParsedFlags): string[] {
  return commaList(listFlag(flags, "allow-host"));
}

/**
 * `--at-each timeline|DAY,DAY…`: one run judged at several dates. Named beside `--at DAY` (one date): "at
 * each" of the timeline's boundaries, or at each day of a list. Its lines in a verb's help, the
 * explanation starting at `column` (where the verb's others do).
 */
export function atEachHelp(column: number): string {
  const pad = " ".repeat(column);
  return [
    "  --at-each timeline|DAY,DAY...",
    `${pad}one run at several dates, reported as one matrix (rules x dates): "timeline" is`,
    `${pad}the day before and the day of each dated change of contracts/timeline.yaml, plus`,
    `${pad}today; or a comma-separated list of days. Excludes --at (docs/report.md)`,
  ].join("\n");
}

/**
 * The dates of `--at-each`, in date order, each once; undefined without the flag. `timeline` gives every
 * boundary of the timeline; a list's days keep the boundary's name where they fall on one. A bad day,
 * an empty list or `--at` beside it is a usage error (exit 2).
 *
 * @example
 * atEachFlag("lint", flags, contract.timeline); // [{ day: "2024-12-15", label: "day before withcount-introduced" }, …]
 */
export function atEachFlag(
  verb: string,
  flags: ParsedFlags,
  timeline: Timeline,
  today: IsoDay = todayIso(),
): TimelineDate[] | undefined {
  const text = stringFlag(flags, "at-each");
  if (text === undefined) return undefined;
  if (stringFlag(flags, "at") !== undefined) {
    throw new AssopayError("usage", `assopay ${verb}: --at and --at-each exclude each other`, {
      hint: "--at judges one date; --at-each timeline (or --at-each DAY,DAY) judges several in one run",
    });
  }
  const boundaries = timelineBoundaries(timeline, today);
  if (text.trim() === "timeline") return boundaries;
  const days = commaList([text]);
  if (days.length === 0) {
    throw new AssopayError("usage", `assopay ${verb}: --at-each needs "timeline" or a list of days`, {
      hint: "for example --at-each timeline, or --at-each 2025-06-29,2025-06-30",
    });
  }
  const unique = [...new Set(days.map((day) => parseIsoDay(day, "--at-each")))].sort();
  return unique.map((day) => ({
    day,
    label: boundaries.find((b) => b.day === day)?.label ?? "given",
  }));
}

/**
 * Writes a verb's report to stdout as `reporter` says, in color where stdout wants it (`useColor`), with
 * `details` in the JSON; returns the exit code: 0 when the report passed, else 1.
 */
export function printReport(
  context: Pick<CommandContext, "stdout" | "env">,
  report: Report,
  reporter: ReporterName,
  details: Readonly<Record<string, unknown>>,
): number {
  context.stdout.write(writeReport(report, reporter, { color: colorOf(context) }, details));
  return report.passed ? 0 : 1;
}

/** Whether the verb's stdout wants color (`useColor`). */
export function colorOf(context: Pick<CommandContext, "stdout" | "env">): boolean {
  return useColor(context.stdout as Writable & { isTTY?: boolean }, context.env);
}

/** Splits a verb's own flags from the command after `--` (undefined without `--`). */
export function splitCommand(argv: readonly string[]): {
  own: readonly string[];
  command?: readonly string[];
} {
  const dash = argv.indexOf("--");
  return dash === -1 ? { own: argv } : { own: argv.slice(0, dash), command: argv.slice(dash + 1) };
}
