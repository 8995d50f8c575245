/**
 * `assopay record` (cli/bin.ts, the real binary with its signal handling) in a child process, and a
 * load of clients that count the exchanges whose responses they fully received.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runnableEntry } from "../../../core/compiled.js";
import { packageRoot } from "../../../core/paths.js";
import { whenPrinted } from "../../support/child-output.js";

export interface RecorderProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with its exit code (or the signal that ended it). */
  exited: Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts `assopay record ARGS`: `node dist/cli/bin.js` while dist/ matches the sources, else
 * `node --import tsx cli/bin.ts` (see core/compiled.ts); resolves once it prints where it listens.
 */
export function spawnRecorder(args: readonly string[]): Promise<RecorderProcess> {
  return spawnServer(["record", ...args]);
}

/**
 * `assopay ARGS` in a child: `node dist/cli/bin.js` while dist/ matches the sources, else
 * `node --import tsx cli/bin.ts` (`uid`: run as that user, for the read-only folder test;
 * `fileSizeLimitKb`: under `ulimit -f`, so that a write past that size fails with EFBIG, as on a full disk).
 */
export function spawnCli(args: readonly string[], uid?: number, fileSizeLimitKb?: number): ChildProcess {
  const ids = uid === undefined ? {} : { uid, gid: uid };
  const bin = runnableEntry(pathToFileURL(join(packageRoot(), "cli", "bin.ts")).href, "bin");
  const node = [process.execPath, ...(bin.tsx ? ["--import", "tsx", bin.file] : [bin.file]), ...args];
  const options = { stdio: ["ignore", "pipe", "pipe"] as ("ignore" | "pipe")[], ...ids };
  if (fileSizeLimitKb === undefined) return spawn(node[0] as string, node.slice(1), options);
  // Node.js ignores SIGXFSZ: a write past the limit fails with EFBIG instead of killing the process.
  const script = `ulimit -f ${fileSizeLimitKb} && exec "$0" "$@"`;
  return spawn("bash", ["-c", script, ...node], options);
}

/** Runs a verb to its end: its exit code and what it printed on each stream. */
export function runCli(
  args: readonly string[],
  uid?: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, uid);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** Starts a serving verb (record, replay) in a child process; resolves once it prints where it listens. */
export function spawnServer(
  args: readonly string[],
  uid?: number,
  fileSizeLimitKb?: number,
): Promise<RecorderProcess> {
  const child = spawnCli(args, uid, fileSizeLimitKb);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  const printed = whenPrinted(child, /listening on (http:\/\/[^\s,]+)/, `assopay ${args[0]}`);
  return printed.found.then((url) => ({ child, url, output: printed.output, exited }));
}

/**
 * `clients` concurrent clients, each sending `GET /blob?id=CLIENT-N&size=BYTES` one after the other
 * until `stop()`; an exchange counts once its response has fully arrived (status 200, every byte).
 */
export function loadClients(url: string, clients: number, size: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const completed = new Set<string>();
  let stopped = false;
  const one = (id: string) =>
    new Promise<void>((resolve) => {
      const call = request(`${url}/blob?id=${id}&size=${size}`, { agent }, (res) => {
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
        });
        res.on("end", () => {
          if (res.statusCode === 200 && received === Number(res.headers["content-length"])) completed.add(id);
          resolve();
        });
        res.on("error", () => resolve());
        res.on("aborted", () => resolve());
      });
      call.on("error", () => resolve());
      call.end();
    });
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let n = 0; !stopped; n++) await one(`${c}-${n}`);
  });
  return {
    completed,
    /** Stops sending; resolves once every client has had its last answer (or error). */
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}
