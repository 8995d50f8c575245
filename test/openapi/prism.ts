import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { packageRoot } from "../../core/paths.js";
import { whenPrinted } from "../support/child-output.js";

/** A Prism process (mock or validation proxy) listening on 127.0.0.1. */
export interface RunningPrism {
  url: string;
  /** Everything Prism printed, for failure messages. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Starts the project's Prism (devDependency, 5.14.2) on loopback, on a port the system gives (`-p 0`):
 * it resolves with the address Prism says it listens on, and rejects with its output if it exits or stays
 * silent for 10 minutes: a limit that catches a hang, never a slow start (under two busy loops and other
 * work, Prism once took more than 60 s to load the provider's document).
 */
export async function startPrism(args: readonly string[]): Promise<RunningPrism> {
  const bin = join(packageRoot(), "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const child: ChildProcess = spawn(process.execPath, [bin, ...args, "-h", "127.0.0.1", "-p", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = whenPrinted(child, /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/, "prism", 600_000);
  const url = await printed.found;
  return {
    url,
    log: printed.output,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
