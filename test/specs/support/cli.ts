import { type CliResult, runCli } from "../../support/run-cli.js";

export type CliRun = CliResult;

/** Runs `assopay verify` in-process through `cli/main.ts`: an `AssopayError` prints its message and exits 2. */
export function runVerifyCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return runCli(["verify", ...argv], env);
}

/**
 * stderr without verify's progress lines (`… crawling …`, one every 10 s of a long task: a loaded
 * machine prints some where a quiet one prints none).
 */
export function withoutProgress(stderr: string): string {
  return stderr.replace(/^… [^\n]*\n/gm, "");
}
