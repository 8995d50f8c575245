import type { Command } from "../../../cli/command.js";
import { captureStream } from "../../support/streams.js";

/** A verb running in this process: its exit code to come, what it has printed so far, and its stop. */
export interface InProcessVerb {
  readonly running: Promise<number>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Aborts the verb as SIGINT would. */
  readonly stop: () => void;
}

/** Starts `command` with `argv` and an empty environment, its output captured. */
export function startVerb(command: Command, argv: string[]): InProcessVerb {
  const stdout = captureStream();
  const stderr = captureStream();
  const controller = new AbortController();
  const running = command.run({
    argv,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {},
    signal: controller.signal,
  });
  return { running, stdout: stdout.text, stderr: stderr.text, stop: () => controller.abort() };
}

/** Waits, looking every 5 ms, until `verb`'s stdout holds `text` or the verb has ended. */
export async function untilPrinted(verb: InProcessVerb, text: string) {
  let ended = false;
  verb.running.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!verb.stdout().includes(text) && !ended) {
    await new Promise((r) => setTimeout(r, 5));
  }
}
