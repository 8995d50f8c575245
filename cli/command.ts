import type { Writable } from "node:stream";
import { type Contract, type ContractOptions, loadContract } from "../contracts/index.js";

/** Loads the contract a verb judges by, from the options its flags name (`loadContract`'s signature). */
export type ContractLoader = (options?: ContractOptions) => Contract;

/** What a verb gets: its own arguments and the streams to talk on. No globals. */
export interface CommandContext {
  /** Arguments after the verb. */
  argv: readonly string[];
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM: long-running verbs stop cleanly and return. */
  signal: AbortSignal;
  /**
   * How the verb loads the contract (default: `loadContract`). A verb calls it once, with the options its
   * flags name, and hands the contract to whatever it runs. The binary passes none; tests running the CLI
   * in-process pass one that shares a loaded contract between runs (each load compiles every schema).
   * @example { loadContract: (options) => loadContract({ ...options, dir: "./my-contracts" }) }
   */
  loadContract?: ContractLoader;
}

/**
 * The contract loader of a verb run: the context's own, else `loadContract`.
 * @example const contract = contractLoader(context)({ shapes: "document" });
 */
export function contractLoader(context: Pick<CommandContext, "loadContract">): ContractLoader {
  return context.loadContract ?? loadContract;
}

/** Resolves once `signal` is aborted (at once if it already is): what a serving verb waits on. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** One verb of `assopay`. `run` resolves to the exit code: 0 rules hold, 1 a rule is broken, 2 bad usage. */
export interface Command {
  name: string;
  /** One line for `assopay --help`. */
  summary: string;
  /** The full `assopay <verb> --help` text. */
  help: string;
  run(context: CommandContext): Promise<number>;
  /**
   * Set by a verb whose `run` stops by itself once `signal` is aborted (a server drains and returns, a run
   * of checks ends with what it has): `main` waits for it. Any other verb is ended at SIGINT or SIGTERM
   * at once, whatever it is reading.
   */
  stopsOnSignal?: true;
}
