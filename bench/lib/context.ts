import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildSpec, type RunningChild, startChild } from "./child.js";

/** Options of one bench run, resolved once from the command line. */
export interface BenchOptions {
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  only: readonly string[];
  write: boolean;
}

/** What a suite gets: the options, a scratch folder, a log, and a way to start children it must close. */
export interface BenchContext {
  options: BenchOptions;
  root: string;
  scratch: string;
  log(line: string): void;
  start(spec: ChildSpec): Promise<RunningChild>;
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
    assopay: (args) => ({ command: process.execPath, args: [join(root, "dist", "cli", "bin.js"), ...args] }),
    system: (name, args) => ({
      command: process.execPath,
      args: ["--import", "tsx", join(root, "bench", "systems", `${name}.ts`), ...args],
    }),
    async closeAll() {
      await Promise.all(running.splice(0).map((c) => c.close()));
    },
    async dispose() {
      await Promise.all(running.splice(0).map((c) => c.close()));
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
