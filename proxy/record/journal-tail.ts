import { closeSync, openSync, readSync } from "node:fs";
import { type JournalEntry, parseFrames } from "./journal-frame.js";

/**
 * The worker's reading end of the journal (see `journal.ts`). The proxy's thread appends frames and then
 * says how far the journal reaches (`upTo`, in a generation: each time the journal is emptied or sealed
 * a new one starts at offset 0); the tail reads what lies between where it stopped and there, as
 * exchanges. It opens the journal's name again for each new generation, and reads the rest of a sealed
 * one from the file it holds open (the host seals no generation before the tail has reported on it, so
 * the name is still that generation's file when the tail opens it: `journal-queue.ts`).
 * Everything up to `upTo` was written whole before it was announced, so a frame cut short there means a
 * broken journal, not one still being written. The frames' content checksums are not checked again here
 * (see `parseFrames`): they guard journals left behind by a crash, which recovery reads.
 */
export class JournalTail {
  private readonly path: string;
  private fd: number;
  private generation = 0;
  private offset: number;
  /** Memory read into, kept from one read to the next (a fresh buffer per read costs an mmap and faults). */
  private buffer = Buffer.alloc(0);

  /** Opens `path` for reading, starting at `from` (the journal's size when the recorder started). */
  constructor(path: string, from: number) {
    this.path = path;
    this.fd = openSync(path, "r");
    this.offset = from;
  }

  /**
   * The exchanges between where reading stopped and `upTo` of `generation`. Their bodies are views of
   * memory the tail reads into again: with `reuse`, the caller says nothing holds the entries of the last
   * read any more; without it, they are read into fresh memory.
   */
  read(generation: number, upTo: number, reuse: boolean): JournalEntry[] {
    if (generation !== this.generation) {
      const fd = openSync(this.path, "r");
      closeSync(this.fd);
      this.fd = fd;
      this.generation = generation;
      this.offset = 0;
    }
    const length = upTo - this.offset;
    if (length <= 0) return [];
    if (!reuse || this.buffer.length < length)
      this.buffer = Buffer.allocUnsafe(Math.max(length, reuse ? this.buffer.length * 2 : 0));
    const bytes = this.buffer;
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, bytes, got, length - got, this.offset + got);
      if (n === 0) break;
      got += n;
    }
    const { entries, end } = parseFrames(bytes.subarray(0, got), false);
    if (end !== length) {
      throw new Error(
        `the journal is cut short or damaged at byte ${this.offset + end} (announced up to ${upTo})`,
      );
    }
    this.offset = upTo;
    return entries;
  }

  close(): void {
    closeSync(this.fd);
  }
}
