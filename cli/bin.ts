#!/usr/bin/env node
import { main } from "./main.js";

const controller = new AbortController();
const stop = () => controller.abort();
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code;
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
