import { constants } from "node:os";
import { AssopayError, formatError, formatLocation, isAssopayError } from "../core/errors.js";
import { packageVersion } from "../core/paths.js";
import { redactSecretData, redactSecretText } from "../core/secrets/text.js";
import { type Command, type CommandContext, untilAborted } from "./command.js";
import { commands, verbs } from "./registry.js";

function overview(all: readonly Command[]): string {
  const width = Math.max(...all.map((c) => c.name.length));
  const lines = all.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "assopay: contract tests, recording proxy and sandbox for the association payment API v5",
    "",
    "Usage: assopay <verb> [flags]      assopay <verb> --help",
    "",
    "Verbs:",
    ...lines,
    "",
    "Exit codes: 0 every rule holds, 1 a rule is broken, 2 bad usage or bad input.",
    "",
  ].join("\n");
}

/** Runs the command line; resolves to the exit code. Exported for tests. */
export async function main(argv: readonly string[], context: Omit<CommandContext, "argv">): Promise<number> {
  const [first, ...more] = argv;
  // `assopay help VERB` is `assopay VERB --help`.
  const [verb, ...rest] =
    first === "help" && more.length > 0 ? [more[0] as string, "--help", ...more.slice(1)] : argv;
  const alone = ["--help", "-h", "help", "--version", "-V"];
  if (verb !== undefined && alone.includes(verb) && rest.length > 0) {
    context.stderr.write(
      `error[usage]: ${verb} takes nothing after it, got "${rest[0]}"\nhint: run 'assopay ${verb}' alone, or 'assopay VERB --help'\n`,
    );
    return 2;
  }
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    context.stdout.write(overview(await commands()));
    return 0;
  }
  if (verb === "--version" || verb === "-V") {
    context.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const all = verbs();
  const named = all.find((c) => c.name === verb);
  if (!named) {
    const near = all.filter((c) => c.name.startsWith(verb.slice(0, 2))).map((c) => c.name);
    const hint =
      near.length > 0 ? `did you mean ${near.join(" or ")}?` : "run 'assopay --help' to list the verbs";
    context.stderr.write(`error[usage]: unknown verb "${verb}"\nhint: ${hint}\n`);
    return 2;
  }
  // Flags after `--` belong to the command a verb runs (`assopay gate -- mytool --help`), not to the verb.
  const ownFlags = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  try {
    const command = await named.load();
    if (ownFlags.includes("--help") || ownFlags.includes("-h")) {
      context.stdout.write(command.help.endsWith("\n") ? command.help : `${command.help}\n`);
      return 0;
    }
    const run = command.run({ ...context, argv: rest });
    return await (command.stopsOnSignal ? run : Promise.race([run, interrupted(named.name, context)]));
  } catch (error) {
    const known = isAssopayError(error) ? error : internalError(error, context.env);
    // An error's text may quote what the user gave (a URL with its password): redacted like every report.
    context.stderr.write(`${redactSecretText(formatError(known))}\n`);
    if (wantsJson(ownFlags)) {
      context.stdout.write(`${JSON.stringify(redactSecretData(errorDocument(named.name, known)))}\n`);
    }
    return known.exitCode;
  }
}

/**
 * Resolves when SIGINT or SIGTERM aborts `context.signal` (its reason names the signal), to the exit code
 * a shell gives a process ended by it (128 + its number), after one line saying so.
 */
function interrupted(verb: string, context: Omit<CommandContext, "argv">): Promise<number> {
  return untilAborted(context.signal).then(() => {
    const reason: unknown = context.signal.reason;
    const signal =
      typeof reason === "string" && reason in constants.signals ? (reason as NodeJS.Signals) : "SIGTERM";
    context.stderr.write(`assopay ${verb}: stopped by ${signal}\n`);
    return 128 + constants.signals[signal];
  });
}

/** True when the verb was asked for a JSON report (`--reporter json`, `--reporter=json`) or line (`--json`). */
function wantsJson(flags: readonly string[]): boolean {
  return flags.some(
    (flag, i) =>
      flag === "--json" || flag === "--reporter=json" || (flag === "--reporter" && flags[i + 1] === "json"),
  );
}

/**
 * A mistake, as JSON on stdout where a JSON report was asked, so a CI step that parses the report reads
 * why there is none. The same text goes to stderr for people.
 */
function errorDocument(verb: string, error: AssopayError) {
  return {
    tool: `assopay ${verb}`,
    error: {
      code: error.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error.location === undefined ? {} : { location: formatLocation(error.location) }),
    },
    exitCode: error.exitCode,
  };
}

/** A fault of assopay itself: one line and a hint, the stack trace only with ASSOPAY_DEBUG=1. */
function internalError(error: unknown, env: CommandContext["env"]): AssopayError {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && env.ASSOPAY_DEBUG === "1" ? `\n${error.stack ?? ""}` : "";
  return new AssopayError("internal", `${message}${stack}`, {
    hint: "this is a fault of assopay, not of your input: please report it with the command line (ASSOPAY_DEBUG=1 shows the stack trace)",
    cause: error,
  });
}
