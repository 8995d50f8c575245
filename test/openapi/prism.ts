import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { packageRoot } from "../../core/paths.js";

/** A Prism process (mock or validation proxy) listening on 127.0.0.1. */
export interface RunningPrism {
  url: string;
  /** Everything Prism printed, for failure messages. */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * Starts the project's Prism (devDependency, 5.14.2) on a free loopback port. Prism takes no port 0, so a
 * free one is picked just before; it resolves once Prism says it listens, and rejects with its output if
 * it exits or stays silent for 60 s.
 */
export async function startPrism(args: readonly string[]): Promise<RunningPrism> {
  const port = await freePort();
  const bin = join(packageRoot(), "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const child: ChildProcess = spawn(process.execPath, [bin, ...args, "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (!output.includes("Prism is listening")) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => output,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
