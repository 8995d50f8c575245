import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { AssopayError } from "./errors.js";

/**
 * Whose a file at a path the user named is, for a verb about to write there:
 * - `absent`: nothing there;
 * - `ours`: this tool wrote it and nobody changed it since (its digest is the one recorded when writing);
 * - `modified`: this tool wrote it, and it was changed since (its digest no longer matches);
 * - `foreign`: something else (a user's file), whatever its first line says.
 */
export const OWNERSHIPS = ["absent", "ours", "modified", "foreign"] as const;
export type Ownership = (typeof OWNERSHIPS)[number];

/** How a verb recognises its own files. */
export interface OwnMarks {
  /**
   * The SHA-256 (hex) recorded when the tool wrote the file, when the verb keeps it itself (a manifest
   * entry); by default, the one {@link writeOwnedFile} recorded beside the file.
   */
  sha256?: string;
}

/**
 * Where the digests of the files written by {@link writeOwnedFile} in a folder are kept: a small JSON map
 * from file name to SHA-256, beside them.
 */
export const WRITTEN_RECORD = ".assopay-written.json";

function recordOf(path: string): { file: string; digests: Record<string, string> } {
  const file = join(dirname(path), WRITTEN_RECORD);
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      return { file, digests: parsed as Record<string, string> };
    }
  } catch {
    // none yet, or unreadable: no file here is known to be ours
  }
  return { file, digests: {} };
}

/**
 * Writes `text` to `path` (a file the user named, such as `--output`) and records its digest beside it
 * ({@link WRITTEN_RECORD}), so that {@link mayReplace} later knows it as ours as long as nobody changes
 * it. A path that is not a regular file once written (`/dev/stdout`) gets no record.
 */
export function writeOwnedFile(path: string, text: string): void {
  writeFileSync(path, text);
  if (!statSync(path).isFile()) return;
  const record = recordOf(path);
  record.digests[basename(path)] = createHash("sha256").update(text).digest("hex");
  const temporary = `${record.file}.${process.pid}`;
  try {
    writeFileSync(temporary, `${JSON.stringify(record.digests, null, 2)}\n`);
    renameSync(temporary, record.file);
  } catch {
    // a folder that takes the file but not its record: the file is then not known as ours (kept next time)
  }
}

/** SHA-256 (hex) of a file, read in chunks. */
export function fileSha256(path: string): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (let position = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      position += n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** Whose the file at `path` is (see {@link Ownership}); a folder there is `foreign`. */
export function ownershipOf(path: string, marks: OwnMarks = {}): Ownership {
  try {
    if (!statSync(path).isFile()) return "foreign";
  } catch (error) {
    // Nothing there: no entry, or a path through a file (writing it says why it cannot be written).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "absent";
    return "foreign";
  }
  const recorded = marks.sha256 ?? recordOf(path).digests[basename(path)];
  if (recorded === undefined) return "foreign";
  return fileSha256(path) === recorded ? "ours" : "modified";
}

/** What a verb tells {@link mayReplace}: its command line, and whether `--force` was given. */
export interface WriteIntent {
  /** How the user named the destination, e.g. `assopay verify --output`. */
  flag: string;
  /** What the verb writes, e.g. `a report`. */
  what: string;
  force: boolean;
}

/**
 * The one decision every verb that writes a file the user named takes before writing: whether it may
 * replace what is there. Nothing there, or its own unchanged file: yes. A file it did not write, or
 * one of its files changed since (by hand), is kept: an `AssopayError` ('conflict', exit 2) saying so,
 * unless `--force` was given. Returns the ownership found.
 *
 * @example
 * mayReplace("report.json", {}, { flag: "assopay verify --output", what: "a report", force });
 */
export function mayReplace(path: string, marks: OwnMarks, intent: WriteIntent): Ownership {
  const ownership = ownershipOf(path, marks);
  if (intent.force || ownership === "absent" || ownership === "ours") return ownership;
  throw refusal(path, ownership, intent);
}

/** The error for a file kept: why it is not replaced, and how to replace it anyway. */
export function refusal(path: string, ownership: Ownership, intent: WriteIntent): AssopayError {
  const why =
    ownership === "modified"
      ? `was written by ${intent.flag.split(" --")[0]} and has been modified since (its hash no longer matches)`
      : `exists and is not ${intent.what} assopay wrote`;
  return new AssopayError("conflict", `${path} ${why}: it is kept, nothing was written`, {
    location: { file: path },
    hint: `choose another ${intent.flag.split(" ").at(-1)}, move the file away, or add --force to replace it`,
  });
}
