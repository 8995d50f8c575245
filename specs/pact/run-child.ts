import { spawn } from "node:child_process";
import { runnableEntry } from "../../core/compiled.js";
import { packageRoot } from "../../core/paths.js";

export interface ChildOutcome {
  code: number | null;
  output: string;
  timedOut: boolean;
}

const MAX_OUTPUT = 512 * 1024;

/**
 * Runs `pact-child` on a config file: compiled, or through tsx (see `runnableEntry`). `env` is added to
 * the process's environment (see `certificateEnv`).
 */
export function runPactChild(
  configFile: string,
  timeoutMs: number,
  signal: AbortSignal,
  env: Record<string, string> = {},
): Promise<ChildOutcome> {
  const entry = runnableEntry(import.meta.url, "pact-child");
  const args = entry.tsx ? ["--import", "tsx", entry.file, configFile] : [entry.file, configFile];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: packageRoot(),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let output = "";
    let timedOut = false;
    const collect = (chunk: Buffer) => {
      if (output.length < MAX_OUTPUT) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const stop = () => child.kill("SIGTERM");
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    signal.addEventListener("abort", stop, { once: true });
    child.on("close", (code) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      resolve({ code, output, timedOut });
    });
  });
}
