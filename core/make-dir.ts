import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creating a folder and its missing parents, one level at a time, each tried once.
 *
 * Node's own `mkdir(dir, { recursive: true })` never returns on some paths: under `/proc` the kernel
 * answers `ENOENT` for a new entry, Node reads that as "the parent is missing", finds the parent, and
 * tries again, forever (100% CPU; the synchronous form also blocks every signal handler). Here each
 * level is created once and any refusal is an error with the level that refused.
 */

/** A folder that could not be made: which level refused and the system's reason (its errno code). */
export class MakeDirError extends Error {
  readonly path: string;
  readonly code: string;
  constructor(path: string, code: string, reason: string) {
    super(`cannot create the folder ${path}: ${reason}`);
    this.name = "MakeDirError";
    this.path = path;
    this.code = code;
  }
}

/** The error of a level the system refused to stat or create, with its errno code in words. */
function refusedAt(path: string, error: unknown): MakeDirError {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  const reason =
    code === "ENOENT"
      ? "the system refuses to create an entry there (a virtual or read-only file system?)"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "EROFS"
          ? "the file system is read-only"
          : code === "ENOTDIR"
            ? "a part of the path is a file, not a folder"
            : (error as Error).message;
  return new MakeDirError(path, code, reason);
}

/** Whether `path` is a folder; undefined when not there (missing, or below a file the walk up finds). */
function isDirSync(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw refusedAt(path, error);
  }
}

/** The levels of `dir` that do not exist yet, outermost first (empty when `dir` exists). */
function missingLevels(dir: string): string[] {
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    const found = isDirSync(current);
    if (found === true) return missing.reverse();
    if (found === false) throw new MakeDirError(current, "ENOTDIR", "it exists and is not a folder");
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) return missing.reverse();
    current = parent;
  }
}

/** Creates `dir` and its missing parents, synchronously; throws MakeDirError naming the level that refused. */
export function makeDirSync(dir: string, mode?: number): void {
  for (const level of missingLevels(dir)) {
    try {
      mkdirSync(level, mode === undefined ? undefined : { mode });
    } catch (error) {
      // Another process made it in between: fine if it is a folder.
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && isDirSync(level) === true) continue;
      throw refusedAt(level, error);
    }
  }
}

/** {@link makeDirSync} under the name the CA folder's maker calls (a handful of stat and mkdir calls). */
export const makeDir = makeDirSync;
