import { open, readFile, unlink } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";

/** The lock a recorder holds on its cassette: `<cassette>.lock`, holding the recorder's process id. */
export interface CassetteLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holder(lockPath: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the cassette's lock so that one recorder at a time writes it. A lock left by a process that no
 * longer runs (a recorder killed with SIGKILL) is taken over, and `onStale` told of it; a live holder,
 * even in this very process, is an `AssopayError` ('conflict', exit 2).
 *
 * @example
 * const lock = await acquireLock("rec.yaml", (pid) => console.error(`took over the lock of ${pid}`));
 */
export async function acquireLock(
  cassette: string,
  onStale: (pid: number, lockPath: string) => void = () => undefined,
): Promise<CassetteLock> {
  const lockPath = `${cassette}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return {
        path: lockPath,
        async release() {
          if ((await holder(lockPath)) === process.pid) await unlink(lockPath).catch(() => undefined);
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new AssopayError("bad-input", `cannot create the lock file: ${(error as Error).message}`, {
          location: { file: lockPath },
          hint: "check that the cassette's folder exists and is writable",
          cause: error,
        });
      }
      const pid = await holder(lockPath);
      if (pid === undefined || isAlive(pid)) {
        const who = pid === undefined ? "another recorder" : `process ${pid}`;
        throw new AssopayError("conflict", `the cassette ${cassette} is being recorded by ${who}`, {
          location: { file: lockPath },
          hint: "stop that recorder or record to another cassette; if no recorder runs, delete the .lock file",
        });
      }
      await unlink(lockPath).catch(() => undefined);
      onStale(pid, lockPath);
    }
  }
  throw new AssopayError("conflict", `the cassette ${cassette} is being recorded by another recorder`, {
    location: { file: lockPath },
    hint: "stop that recorder or record to another cassette",
  });
}
