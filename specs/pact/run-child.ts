import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../../core/paths.js";

export interface ChildOutcome {
  code: number | null;
  output: string;
  timedOut: boolean;
}

const MAX_OUTPUT = 512 * 1024;

/** Runs `pact-child` on a config file (through tsx when running from the TypeScript sources). */
export function runPactChild(
  configFile: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ChildOutcome> {
  const fromSources = import.meta.url.endsWith(".ts");
  const script = fileURLToPath(new URL(`./pact-child.${fromSources ? "ts" : "js"}`, import.meta.url));
  const args = fromSources ? ["--import", "tsx", script, configFile] : [script, configFile];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: packageRoot(),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
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
