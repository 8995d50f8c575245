import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
  writevSync,
} from "node:fs";
import { AssopayError } from "../../core/errors.js";
import type { CapturedBody } from "./capture.js";
import { frameStart } from "./journal-frame.js";

/**
 * The write-ahead journal of a recording: `<file>.journal`, next to the file being written. Every exchange
 * is appended to it on the proxy's thread, raw (not yet redacted), in one `writev(2)`, before the proxy
 * ends its response; the worker reads it back from the file and turns it into YAML later (see
 * `JournalTail`, `worker.ts`), so the journal is the only queue between the two threads. Once everything
 * journaled is in the cassette, the journal is emptied. Under traffic that never lets the worker catch up
 * it is sealed instead once it reaches 16 MiB (the lag bound, `worker-host.ts`): renamed `<file>.journal.sealed`, while a
 * new `<file>.journal` takes the next exchanges; the sealed one is deleted once the worker has converted
 * all of it. On a clean stop both are deleted. Journals left behind (the recorder was killed) are folded
 * into the cassette by the next program that opens it, a reader or a recorder, the sealed one first (see
 * `recover.ts`).
 *
 * Its frame format, with a checksum over each frame, is in `journal-frame.ts`; recovery reads a journal
 * as a stream, skipping damaged frames (`scanJournal`, `recover.ts`).
 */
const JOURNAL_SUFFIX = ".journal";

/** The suffix of a journal sealed at its mark, until the worker has converted all of it. */
const SEALED_SUFFIX = ".journal.sealed";

/** The journals of `file`, in the order their exchanges were recorded: the sealed one, then the open one. */
export function journalPaths(file: string): readonly [sealed: string, open: string] {
  return [`${file}${SEALED_SUFFIX}`, `${file}${JOURNAL_SUFFIX}`];
}

/** A journal opened for appending (mode 0600: it holds secrets not yet redacted). */
export class Journal {
  readonly path: string;
  /** The file being recorded, whose journal this is. */
  private readonly file: string;
  private readonly fd: number;
  private failed = false;
  private written: number;

  private constructor(file: string) {
    this.file = file;
    this.path = journalPaths(file)[1];
    this.fd = openSync(this.path, "a", 0o600);
    this.written = fstatSync(this.fd).size;
  }

  /** Opens (creating it when missing) the journal of `file`. */
  static open(file: string): Journal {
    return new Journal(file);
  }

  /** The journal's length in bytes: where the next frame starts. */
  get size(): number {
    return this.written;
  }

  /** Whether a write has failed (nothing more is journaled then). */
  get broken(): boolean {
    return this.failed;
  }

  /**
   * Appends one exchange; its metadata comes already as JSON text. Throws an `AssopayError` when the
   * journal cannot be written (a full disk): what a failed write left of the frame is cut off again where
   * possible, and nothing more is appended.
   */
  append(meta: string, request: CapturedBody, response: CapturedBody): void {
    if (this.failed) throw this.unwritable(new Error("an earlier write failed"));
    const requestParts = Buffer.isBuffer(request) ? [request] : request;
    const responseParts = Buffer.isBuffer(response) ? [response] : response;
    const parts = [frameStart(meta, requestParts, responseParts), ...requestParts, ...responseParts];
    const length = total(parts);
    try {
      const written = writevSync(this.fd, parts);
      if (written < length) {
        const rest = Buffer.concat(parts).subarray(written);
        let offset = 0;
        while (offset < rest.length) offset += writeSync(this.fd, rest, offset, rest.length - offset);
      }
    } catch (error) {
      this.failed = true;
      try {
        ftruncateSync(this.fd, this.written);
      } catch {
        // the frame stays cut short: recovery drops a last frame cut short
      }
      throw this.unwritable(error);
    }
    this.written += length;
  }

  private unwritable(cause: unknown): AssopayError {
    const why = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return new AssopayError(
      "bad-input",
      `cannot write the journal ${this.path} (${why}): recording stopped; new requests get 503 and are not forwarded`,
      {
        hint: "the journal sits beside the cassette: free space on that disk (or let this user write there), then start assopay record again on the same cassette; every exchange a client received is in the cassette or its journal, and that start folds the journal in",
        cause,
      },
    );
  }

  /**
   * Seals this journal: renames it `<file>.journal.sealed` (an earlier sealed one is converted by then,
   * and replaced) and returns that name and a new, empty journal in its place; this one is closed. Throws
   * an `AssopayError` when the rename or the new file fails: this one stays open (its `close` closes it)
   * and nothing more is appended to it.
   */
  seal(): { sealed: string; next: Journal } {
    if (this.failed) throw this.unwritable(new Error("an earlier write failed"));
    const [sealed] = journalPaths(this.file);
    let next: Journal;
    try {
      renameSync(this.path, sealed);
      next = new Journal(this.file);
    } catch (error) {
      this.failed = true;
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new AssopayError(
        "bad-input",
        `cannot seal the journal ${this.path} as ${sealed} (${why}): recording stopped; new requests get 503 and are not forwarded`,
        {
          hint: `move whatever is at ${sealed} out of the way (or free space on that disk), then start assopay record again on the same cassette; every exchange a client received is in the cassette or its journals, and that start folds them in`,
          cause: error,
        },
      );
    }
    try {
      closeSync(this.fd);
    } catch {
      // everything written is in the file already; the new journal takes the next exchanges
    }
    return { sealed, next };
  }

  /** Empties the journal: everything in it is in the cassette. */
  clear(): void {
    if (this.failed) return;
    try {
      ftruncateSync(this.fd, 0);
      this.written = 0;
    } catch {
      this.failed = true;
    }
  }

  /** Closes the journal; `remove` deletes it too (everything in it is in the cassette). */
  close(remove: boolean): void {
    closeSync(this.fd);
    if (remove && !this.failed) unlinkSync(this.path);
  }
}

function total(parts: readonly Buffer[]): number {
  let n = 0;
  for (const part of parts) n += part.length;
  return n;
}
