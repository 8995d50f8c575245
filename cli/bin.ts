#!/usr/bin/env node
import { main } from "./main.js";

const controller = new AbortController();
// Every SIGINT and SIGTERM is handled, not only the first: a second one (GNU timeout, an impatient
// Ctrl-C) must not kill a recorder that is still writing what it has; the command finishes its drain.
const stop = (signal: NodeJS.Signals) => {
  if (controller.signal.aborted) {
    process.stderr.write(`assopay: ${signal} again: still finishing, please wait\n`);
    return;
  }
  controller.abort(signal);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code;
    // Stopped by a signal: what it was waiting for (a read, a connection) must not keep it alive.
    if (controller.signal.aborted) process.exit(code);
  },
  (error: unknown) => {
    // main() turns every error into a message; this is the last guard, still without a stack trace.
    const debug = process.env.ASSOPAY_DEBUG === "1" && error instanceof Error ? `\n${error.stack}` : "";
    process.stderr.write(
      `error[internal]: ${error instanceof Error ? error.message : String(error)}${debug}\n`,
    );
    process.exitCode = 2;
  },
);
