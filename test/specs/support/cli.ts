import { type CliResult, runCli } from "../../support/run-cli.js";

export type CliRun = CliResult;

/** Runs `assopay verify` in-process through `cli/main.ts`: an `AssopayError` prints its message and exits 2. */
export function runVerifyCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return runCli(["verify", ...argv], env);
}
