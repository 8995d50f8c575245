import type { Command } from "../../cli/command.js";
import { type CliResult, runCli } from "../support/run-cli.js";

/** Runs one verb in-process through `cli/main.ts`, as the command line would. */
export function runVerb(
  command: Command,
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  return runCli([command.name, ...argv], env);
}
