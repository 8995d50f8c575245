import { main } from "../../cli/main.js";
import { captureStream } from "./streams.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `assopay <argv>` in-process and captures its output and exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const stdout = captureStream();
  const stderr = captureStream();
  const code = await main(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    signal: new AbortController().signal,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
