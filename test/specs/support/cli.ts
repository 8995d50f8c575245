import { Writable } from "node:stream";
import { verifyCommand } from "../../../cli/commands/verify.js";
import { formatError, isAssopayError } from "../../../core/errors.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

/** Runs `assopay verify` as `cli/main.ts` would: an `AssopayError` prints its message and exits 2. */
export async function runVerifyCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const stdout = sink();
  const stderr = sink();
  let code: number;
  try {
    code = await verifyCommand.run({
      argv,
      stdout: stdout.stream,
      stderr: stderr.stream,
      env,
      signal: new AbortController().signal,
    });
  } catch (error) {
    if (!isAssopayError(error)) throw error;
    stderr.stream.write(`${formatError(error)}\n`);
    code = error.exitCode;
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
