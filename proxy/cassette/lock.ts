import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { open, readFile, stat, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { AssopayError } from "../../core/errors.js";

/**
 * The lock a recorder holds on its cassette: `<cassette>.lock` beside the file itself (symbolic links
 * followed), holding the recorder's process id.
 */
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
 * The file a path names, symbolic links followed, even to a file not created yet (a link whose target does
 * not exist, a new name in a linked folder): what the recorder writes and locks, so that the lock follows
 * the file, not the name.
 *
 * @example fileOf("latest.yaml") // "/home/me/recordings/2026-12-01.yaml" when latest.yaml links there
 */
export function fileOf(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(current);
    } catch {
      // not there (yet): a dangling link is followed by hand, a new name kept in its real folder
    }
    if (!lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink()) break;
    current = resolve(dirname(current), readlinkSync(current));
  }
  let folder = dirname(current);
  try {
    folder = realpathSync(folder);
  } catch {
    // a folder that does not exist: opening the cassette says so
  }
  return resolve(folder, basename(current));
}

/**
 * A cassette with several names (hard links) could be written under another name by a second recorder,
 * whose lock would sit beside that name: refused, whoever asks.
 */
async function checkOneName(cassette: string, file: string): Promise<void> {
  const links = (await stat(file).catch(() => undefined))?.nlink ?? 1;
  if (links <= 1) return;
  throw new AssopayError(
    "conflict",
    `the cassette ${cassette} has ${links} names (hard links): another recorder could write it under another name`,
    {
      location: { file: cassette },
      hint: `record to a file with one name: copy it (cp ${cassette} new.yaml) or remove its other names`,
    },
  );
}

/**
 * Takes the cassette's lock so that one recorder at a time writes it. A lock left by a process that no
 * longer runs (a recorder killed with SIGKILL) is taken over, and `onStale` told of it; a live holder,
 * even in this very process, is an `AssopayError` ('conflict', exit 2). The lock sits beside the file the
 * path names (links followed), and a file with several names is refused: two recorders never write one
 * cassette, whatever names they are given.
 *
 * @example
 * const lock = await acquireLock("rec.yaml", (pid) => console.error(`took over the lock of ${pid}`));
 */
export async function acquireLock(
  cassette: string,
  onStale: (pid: number, lockPath: string) => void = () => undefined,
): Promise<CassetteLock> {
  const file = fileOf(cassette);
  await checkOneName(cassette, file);
  const lockPath = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      // A write that fails (a full disk) closes the file and removes it: no descriptor left to the
      // garbage collector, no empty lock that would read as another recorder's.
      await handle
        .writeFile(`${process.pid}\n`)
        .catch(async (error: unknown) => {
          await unlink(lockPath).catch(() => undefined);
          throw error;
        })
        .finally(() => handle.close());
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
