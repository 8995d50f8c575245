import type { Writable } from "node:stream";

/** What a verb gets: its own arguments and the streams to talk on. No globals. */
export interface CommandContext {
  /** Arguments after the verb. */
  argv: readonly string[];
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM: long-running verbs stop cleanly and return. */
  signal: AbortSignal;
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
}
