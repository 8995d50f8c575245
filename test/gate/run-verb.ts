import type { Command } from "../../cli/command.js";
import { formatError, isAssopayError } from "../../core/errors.js";
import type { CliResult } from "../support/run-cli.js";
import { captureStream } from "../support/streams.js";

/**
 * Runs one verb in-process as `cli/main.ts` does (usage errors printed, exit 2), without the registry:
 * the tests of gate and notify do not depend on how the verbs are listed.
 */
export async function runVerb(
  command: Command,
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const stdout = captureStream();
  const stderr = captureStream();
  let code: number;
  try {
    code = await command.run({
      argv,
      env,
      stdout: stdout.stream,
      stderr: stderr.stream,
      signal: new AbortController().signal,
    });
  } catch (error) {
    if (!isAssopayError(error)) throw error;
    stderr.stream.write(`${formatError(error)}\n`);
    code = error.exitCode;
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
