import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pactClientScript } from "../../../cli/commands/contracts.js";
import { packageRoot } from "../../../core/paths.js";
import { certificateEnv } from "../../../specs/pact/cert-store.js";
import { whenPrinted } from "../../support/child-output.js";

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

/**
 * A running `pact stub` on a pact file, ready to answer; `stop` ends it. Without `--port` the stub takes
 * a port the system gives and logs it ("Server started on port N"): no port is picked beforehand, which
 * another test's server could take before the stub binds it.
 */
export async function startStub(file: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [pactScript(), "stub", "-f", file], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
    detached: true,
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("close", () => resolve());
      stopGroup(child.pid);
    });
  const port = await whenPrinted(child, /Server started on port (\d+)/, "pact stub", 300_000).found.catch(
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
  return { url: `http://127.0.0.1:${port}`, stop };
}
