import { type ChildProcess, spawn } from "node:child_process";

/** A system under test running in its own process. */
export interface RunningChild {
  url: string;
  /** The whole output line the URL was found on (e.g. the sandbox's `--json` line). */
  line: string;
  pid: number;
  close(): Promise<void>;
}

export interface ChildSpec {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** How long to wait for the URL line. */
  startTimeoutMs?: number;
  /** The pattern whose first group is the URL (default: the first http://127.0.0.1:PORT printed). */
  urlPattern?: RegExp;
}

const URL_PATTERN = /(http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/;

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Starts a process and resolves once it prints the URL it listens on. */
export function startChild(spec: ChildSpec): Promise<RunningChild> {
  const child = spawn(spec.command, spec.args, {
    env: { ...process.env, ...spec.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pattern = spec.urlPattern ?? URL_PATTERN;
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      void stop(child);
      reject(
        new Error(
          `${spec.command} ${spec.args.join(" ")} did not print its URL in time:\n${output.slice(-2000)}`,
        ),
      );
    }, spec.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        const start = output.lastIndexOf("\n", found.index) + 1;
        const end = output.indexOf("\n", found.index);
        const line = output.slice(start, end === -1 ? undefined : end);
        resolve({ url: found[1], line, pid: child.pid ?? 0, close: () => stop(child) });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new Error(`${spec.command} exited with ${code} before printing its URL:\n${output.slice(-2000)}`),
      );
    });
  });
}

/** A TypeScript file of this repository run with tsx in its own process. */
export function tsChild(file: string, args: string[], env?: Record<string, string>): ChildSpec {
  return { command: process.execPath, args: ["--import", "tsx", file, ...args], ...(env ? { env } : {}) };
}
