import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pactClientScript } from "../../../cli/commands/contracts-publish.js";
import { packageRoot } from "../../../core/paths.js";
import { certificateEnv } from "../../../specs/pact/cert-store.js";

export interface PactRun {
  code: number | null;
  output: string;
}

/** The official `pact` binary of @pact-foundation/pact-cli (the devDependency), through its npm entry. */
export function pactScript(): string {
  const script = pactClientScript(packageRoot());
  if (!script) throw new Error("@pact-foundation/pact-cli is not installed: run npm ci");
  return script;
}

/**
 * Ends a `pact` run and its native child: the npm entry script runs the binary as a child of its own,
 * so the whole process group is signalled (the run is started `detached`, in a group of its own).
 */
function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/**
 * Runs `pact ARGS…` to its end; stdout and stderr together. The URLs among the arguments decide its
 * certificate store (`certificateEnv`: empty where all are plain http, as every run of these tests is; a
 * `--hostname` and `--port` pair is plain http unless `--transport https` is given).
 */
export function runPact(args: string[], timeoutMs = 240_000): Promise<PactRun> {
  const scratch = mkdtempSync(join(tmpdir(), "assopay-pact-run-"));
  const urls = args.filter((arg) => /^[a-z][a-z0-9+.-]*:\/\//i.test(arg));
  const tls = args.some((arg, i) => arg === "--transport" && args[i + 1] === "https");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [pactScript(), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...(tls ? {} : certificateEnv(urls, process.env, scratch)),
        NO_COLOR: "1",
      },
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const timer = setTimeout(() => stopGroup(child.pid), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      rmSync(scratch, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

/** A port free on 127.0.0.1 right now (the stub server takes a port number, not 0 with a report). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A running `pact stub` on a pact file, ready to answer; `stop` ends it. */
export async function startStub(file: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [pactScript(), "stub", "-f", file, "-p", String(port)], {
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("close", () => resolve());
      stopGroup(child.pid);
    });
  for (let attempt = 0; attempt < 150; attempt++) {
    try {
      await fetch(`${url}/__ready`);
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`pact stub did not listen on ${url}`);
}
