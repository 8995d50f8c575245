import { type ParseArgsConfig, parseArgs } from "node:util";
import { AssopayError } from "../core/errors.js";

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

/** Parses a port number (0 = any free port). */
export function portFlag(verb: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AssopayError(
      "usage",
      `assopay ${verb}: --port must be a whole number from 0 to 65535, got "${text}"`,
      {
        hint: "use --port 0 to take any free port",
      },
    );
  }
  return port;
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
