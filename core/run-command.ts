import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

/** The command under test: a program and its arguments, run without a shell. */
export interface CommandLine {
  readonly command: string;
  readonly args: readonly string[];
}

/** Why a command was stopped before it ended by itself. */
export type StopReason = "request-budget" | "time-limit" | "aborted";

/** How the command ended. */
export interface CommandEnd {
  /** Its exit code, `null` when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Set when it was stopped (its whole process group). */
  readonly stoppedBy: StopReason | undefined;
  readonly durationMs: number;
  /** Set when it could not start at all (`ENOENT` …). */
  readonly startError: string | undefined;
  /** The last lines it wrote to stderr (at most `STDERR_TAIL_LINES`), for a verdict that leads with a crash. */
  readonly stderrTail: readonly string[];
}

/** How many of the command's last stderr lines a verdict quotes. */
export const STDERR_TAIL_LINES = 12;

export interface RunningCommand {
  /** Stops the command and every process it started (once; later calls are ignored). */
  stop(reason: StopReason): void;
  readonly done: Promise<CommandEnd>;
}

export interface RunCommandOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** Receives each line the command writes (stdout and stderr), without its newline. */
  readonly onLine: (line: string, stream: "stdout" | "stderr") => void;
  readonly signal: AbortSignal | undefined;
  /** The folder it runs in (default: this process's). */
  readonly cwd?: string;
}

/** Grace between SIGTERM and SIGKILL for a stopped command. */
const KILL_GRACE_MS = 1500;
/** How long to wait for output pipes held open by leftover children once the command exited. */
const DRAIN_MS = 2000;

function lines(stream: Readable | null, emit: (line: string) => void): void {
  if (!stream) return;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const parts = (rest + chunk).split(/\r?\n/);
    rest = parts.pop() ?? "";
    for (const line of parts) emit(line);
  });
  stream.on("end", () => {
    if (rest !== "") emit(rest);
    rest = "";
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/**
 * Runs the command in its own process group (so that stopping it stops everything it started), with
 * its output passed line by line to `onLine`, and a time limit after which it is stopped.
 *
 * @example
 * const run = runCommand({ command: "npm", args: ["test"] }, { env, timeoutMs: 60_000, onLine, signal });
 * layerBudget.onSpent(() => run.stop("request-budget"));
 * const outcome = await run.done;
 */
export function runCommand(line: CommandLine, options: RunCommandOptions): RunningCommand {
  const started = Date.now();
  let stoppedBy: StopReason | undefined;
  const child = spawn(line.command, [...line.args], {
    env: options.env as NodeJS.ProcessEnv,
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    shell: false,
  });
  const tail: string[] = [];
  lines(child.stdout, (text) => options.onLine(text, "stdout"));
  lines(child.stderr, (text) => {
    tail.push(text);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
    options.onLine(text, "stderr");
  });

  let killTimer: NodeJS.Timeout | undefined;
  const stop = (reason: StopReason) => {
    if (stoppedBy !== undefined || child.pid === undefined || child.exitCode !== null) return;
    stoppedBy = reason;
    const pid = child.pid;
    killGroup(pid, "SIGTERM");
    killTimer = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop("time-limit"), options.timeoutMs);
  const onAbort = () => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const done = new Promise<CommandEnd>((resolve) => {
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null, startError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (stoppedBy !== undefined && child.pid !== undefined) {
        killGroup(child.pid, "SIGKILL");
        if (killTimer) clearTimeout(killTimer);
      }
      resolve(
        Object.freeze({
          exitCode,
          signal,
          stoppedBy,
          durationMs: Date.now() - started,
          startError,
          stderrTail: Object.freeze([...tail]),
        }),
      );
    };
    child.once("error", (error) => finish(null, null, error.message));
    child.once("exit", (code, signal) => {
      // Output may still be in the pipes: wait for them, but not for children that keep them open.
      const drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_MS);
      child.once("close", () => {
        clearTimeout(drain);
        finish(code, signal);
      });
    });
  });
  return { stop, done };
}

/** Where a user's program finds the API served to it (`url`, the service's root), as docs/gate.md lists. */
export const apiEnv = (url: string) => ({
  ASSOPAY_BASE_URL: url,
  ASSOPAY_API_URL: `${url}/v5`,
  ASSOPAY_TOKEN_URL: `${url}/oauth2/token`,
});
