import { closeSync, fstatSync, ftruncateSync, openSync, unlinkSync, writeSync, writevSync } from "node:fs";
import { AssopayError } from "../../core/errors.js";
import type { CapturedBody } from "./capture.js";
import { frameStart } from "./journal-frame.js";

/**
 * The write-ahead journal of a recording: `<file>.journal`, next to the file being written. Every exchange
 * is appended to it on the proxy's thread, raw (not yet redacted), in one `writev(2)`, before the proxy
 * ends its response; the worker reads it back from the file and turns it into YAML later (see
 * `journal-tail.ts`), so the journal is the only queue between the two threads. Once everything
 * journaled is in the cassette, the journal is emptied; on a clean stop it is deleted. A journal left
 * behind (the recorder was killed) is folded into the cassette by the next program that opens it, a
 * reader or a recorder (see `recover.ts`).
 *
 * Its frame format, with a checksum over each frame, is in `journal-frame.ts`; recovery reads a journal
 * as a stream, skipping damaged frames (`journal-reader.ts`).
 */
export const JOURNAL_SUFFIX = ".journal";

/** A journal opened for appending (mode 0600: it holds secrets not yet redacted). */
export class Journal {
  readonly path: string;
  private readonly fd: number;
  private failed = false;
  private written: number;

  private constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, "a", 0o600);
    this.written = fstatSync(this.fd).size;
  }

  /** Opens (creating it when missing) the journal of `file`. */
  static open(file: string): Journal {
    return new Journal(`${file}${JOURNAL_SUFFIX}`);
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
