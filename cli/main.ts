import { formatError, isAssopayError } from "../core/errors.js";
import { packageVersion } from "../core/paths.js";
import type { Command, CommandContext } from "./command.js";
import { commands } from "./registry.js";

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
  const all = commands();
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    context.stdout.write(overview(all));
    return 0;
  }
  if (verb === "--version" || verb === "-V") {
    context.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = all.find((c) => c.name === verb);
  if (!command) {
    const near = all.filter((c) => c.name.startsWith(verb.slice(0, 2))).map((c) => c.name);
    const hint =
      near.length > 0 ? `did you mean ${near.join(" or ")}?` : "run 'assopay --help' to list the verbs";
    context.stderr.write(`error[usage]: unknown verb "${verb}"\nhint: ${hint}\n`);
    return 2;
  }
  // Flags after `--` belong to the command a verb runs (`assopay gate -- mytool --help`), not to the verb.
  const ownFlags = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (ownFlags.includes("--help") || ownFlags.includes("-h")) {
    context.stdout.write(command.help.endsWith("\n") ? command.help : `${command.help}\n`);
    return 0;
  }
  try {
    return await command.run({ ...context, argv: rest });
  } catch (error) {
    if (isAssopayError(error)) {
      context.stderr.write(`${formatError(error)}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
