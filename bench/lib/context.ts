import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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
  /** How long to wait for the URL line. */
  startTimeoutMs?: number;
  /** The pattern whose first group is the URL (default: the first http://127.0.0.1:PORT printed). */
  urlPattern?: RegExp;
  /** The URL, known beforehand (a peer given its port): `urlPattern` then only says the child is ready. */
  url?: string;
}

const URL_PATTERN = /(http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/;

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // A recorder finishes its cassette on SIGTERM: on a loaded machine that takes more than seconds.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Starts a process and resolves once it prints the URL it listens on. */
function startChild(spec: ChildSpec): Promise<RunningChild> {
  const child = spawn(spec.command, spec.args, {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pattern = spec.urlPattern ?? URL_PATTERN;
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      void stop(child);
      reject(
        new Error(
          `${spec.command} ${spec.args.join(" ")} did not print its URL (or figures) in time:\n${output.slice(-2000)}`,
        ),
      );
    }, spec.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      // Its tail only: a verify run prints its whole report before the figures' line.
      output = (output + chunk.toString()).slice(-65_536);
      const found = pattern.exec(output);
      const url = spec.url ?? found?.[1];
      if (found && url) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        const start = output.lastIndexOf("\n", found.index) + 1;
        const end = output.indexOf("\n", found.index);
        const line = output.slice(start, end === -1 ? undefined : end);
        resolve({ url, line, pid: child.pid ?? 0, close: () => stop(child) });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    // Once its output is read to the end: a process that prints its line and exits has printed it then.
    child.once("close", (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${spec.command} exited with ${code} before printing its URL (or figures):\n${output.slice(-2000)}`,
        ),
      );
    });
  });
}

/** Options of one bench run, resolved once from the command line. */
export interface BenchOptions {
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
}

/** What a suite gets: the options, a scratch folder, a log, and a way to start children it must close. */
export interface BenchContext {
  options: BenchOptions;
  root: string;
  scratch: string;
  log(line: string): void;
  start(spec: ChildSpec): Promise<RunningChild>;
  /**
   * Runs a child that prints its figures on a `LABEL {…}` line (stdout or stderr) as it ends, and returns
   * them (the JSON).
   */
  figures<T>(spec: ChildSpec, label: string): Promise<T>;
  /** The built `assopay` command (dist/cli/bin.js) with arguments. */
  assopay(args: string[]): ChildSpec;
  /** A bench system script run with tsx. */
  system(name: string, args: string[]): ChildSpec;
  /** Stops every child started so far (between suites). */
  closeAll(): Promise<void>;
  /** Stops the children and removes the scratch folder (at the very end). */
  dispose(): Promise<void>;
}

export function createContext(options: BenchOptions): BenchContext {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const scratch = mkdtempSync(join(tmpdir(), "assopay-bench-"));
  const running: RunningChild[] = [];
  return {
    options,
    root,
    scratch,
    log: (line) => process.stderr.write(`${line}\n`),
    async start(spec) {
      const child = await startChild(spec);
      running.push(child);
      return child;
    },
    async figures(spec, label) {
      const pattern = new RegExp(`^${label} (\\{.*\\})$`, "m");
      // No bound on the run beyond an hour's: verify's largest takes minutes.
      const child = await startChild({ ...spec, urlPattern: pattern, startTimeoutMs: 3_600_000 });
      return JSON.parse(child.url); // the pattern's group: the figures' JSON
    },
    assopay: (args) => ({ command: process.execPath, args: [join(root, "dist", "cli", "bin.js"), ...args] }),
    system: (name, args) => ({
      command: process.execPath,
      args: ["--import", "tsx", join(root, "bench", "systems", `${name}.ts`), ...args],
    }),
    async closeAll() {
      await Promise.all(running.splice(0).map((c) => c.close()));
    },
    async dispose() {
      await this.closeAll();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
