import type { ContractLoader } from "../../cli/command.js";
import { main } from "../../cli/main.js";
import { type Contract, type ContractOptions, loadContract } from "../../contracts/index.js";
import { captureStream } from "./streams.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The package's own contracts, loaded once per shapes and kept for the test process. Each load compiles
 * every JSON Schema (100 to 350 ms of CPU) and the tests run the CLI in-process hundreds of times; the
 * package's contract files do not change during a run. Test support only: the CLI itself keeps nothing.
 */
const packageContracts = new Map<string, Contract>();

/**
 * `loadContract`, sharing one contract per shapes when the options name no file or folder of the user's
 * (no `dir`, `timelineFile`, `notificationTypesFile`, nor any option added later); any other options load
 * afresh, so a test's own or broken contract file is read, and fails, as in a real run.
 */
export const sharedContractLoader: ContractLoader = (options: ContractOptions = {}) => {
  const onlyShapes = Object.entries(options).every(
    ([name, value]) => name === "shapes" || value === undefined,
  );
  if (!onlyShapes) return loadContract(options);
  const shapes = options.shapes ?? "seed";
  const known = packageContracts.get(shapes);
  if (known) return known;
  const contract = loadContract({ shapes });
  packageContracts.set(shapes, contract);
  return contract;
};

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
    loadContract: sharedContractLoader,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
