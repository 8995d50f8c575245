/**
 * `assopay record` in a child process, for the SIGKILL test: the very command `cli/bin.ts record` runs,
 * started without going through the verb registry.
 */
import { recordCommand } from "../../../cli/commands/record.js";
import { formatError, isAssopayError } from "../../../core/errors.js";

const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
process.once("SIGTERM", () => controller.abort());

recordCommand
  .run({
    argv: process.argv.slice(process.argv[2] === "record" ? 3 : 2),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  })
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${isAssopayError(error) ? formatError(error) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
