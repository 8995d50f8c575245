import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { AssopayError } from "./errors.js";

/**
 * Whose a file at a path the user named is, for a verb about to write there:
 * - `absent`: nothing there;
 * - `ours`: this tool wrote it and nobody changed it since (its content says so);
 * - `modified`: this tool wrote it, and it was changed since (its hash no longer matches the one recorded);
 * - `foreign`: something else (a user's file).
 */
export const OWNERSHIPS = ["absent", "ours", "modified", "foreign"] as const;
export type Ownership = (typeof OWNERSHIPS)[number];

/** How a verb recognises its own files. */
export interface OwnMarks {
  /** The SHA-256 (hex) recorded when the tool wrote the file (a manifest entry): when given, it decides alone. */
  sha256?: string;
  /**
   * Whether the text is one the tool writes (a report's header, a generator mark). It gets the whole
   * text of a file up to {@link WHOLE_TEXT} bytes, the first {@link HEAD_TEXT} bytes of a larger one.
   */
  looksOurs?: (text: string) => boolean;
}

/** Files up to this size are given whole to `looksOurs`. */
const WHOLE_TEXT = 16 * 1024 * 1024;
/** What `looksOurs` gets of a larger file: its beginning. */
const HEAD_TEXT = 64 * 1024;

function readText(path: string, size: number): string {
  const length = size <= WHOLE_TEXT ? size : HEAD_TEXT;
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, bytes, got, length - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.toString("utf8", 0, got);
  } finally {
    closeSync(fd);
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
export function ownershipOf(path: string, marks: OwnMarks): Ownership {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return "foreign";
    size = stat.size;
  } catch (error) {
    // Nothing there: no entry, or a path through a file (writing it says why it cannot be written).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "absent";
    return "foreign";
  }
  if (marks.sha256 !== undefined) return fileSha256(path) === marks.sha256 ? "ours" : "modified";
  return marks.looksOurs?.(readText(path, size)) ? "ours" : "foreign";
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
 * mayReplace("report.json", { looksOurs: isReport }, { flag: "assopay verify --output", what: "a report", force });
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
