import { unlinkSync } from "node:fs";
import type { CapturedBody } from "./capture.js";
import type { Journal } from "./journal.js";
import { LAG_HIGH, type Lag } from "./lag-bound.js";

/** A sealed journal the worker has not converted all of yet. */
interface Sealed {
  readonly generation: number;
  readonly path: string;
  readonly size: number;
  converted: number;
}

/**
 * The journal as the only queue between the proxy's thread and the worker (see `journal.ts`): how far it
 * is written, announced to the worker and converted by it. Offsets count in generations: a generation is
 * one file's bytes from offset 0, and a new one starts each time the journal is emptied or sealed. This
 * is where it is decided when to do either:
 * - emptied, once everything in it is converted;
 * - sealed, once it has reached its mark (`lag-bound.ts`) while the worker lags: renamed, a new journal
 *   in its place, the sealed one deleted once converted. Never while a sealed one is still there, nor
 *   before the worker has opened the current file: the worker opens each generation's file by the
 *   journal's name, which must still be that file's when it does.
 *
 * The host decides when to announce (it batches), and `tell` carries the announcement to the worker.
 */
export class JournalQueue {
  private journal: Journal;
  private readonly tell: (generation: number, upTo: number) => void;
  private generation = 0;
  /** The newest generation the worker has reported on: it has opened that generation's file. */
  private workerGeneration = 0;
  private announced: number;
  private converted: number;
  private sealed: Sealed | undefined;
  /** Exchanges journaled and not yet converted, in every generation. */
  private unconverted = 0;
  /** Exchanges journaled since the worker was last told how far the journal reaches. */
  private unannouncedExchanges = 0;

  /** Takes over `journal` (what it already holds counts as converted). */
  constructor(journal: Journal, tell: (generation: number, upTo: number) => void) {
    this.journal = journal;
    this.tell = tell;
    this.announced = journal.size;
    this.converted = journal.size;
  }

  /** Whether a write has failed (nothing more is journaled then). */
  get broken(): boolean {
    return this.journal.broken;
  }

  /** Exchanges not yet in the cassette, and the journal's length (see `lag-bound.ts`). */
  get lag(): Lag {
    return { exchanges: this.unconverted, journalBytes: this.journal.size };
  }

  /** Bytes journaled and not yet converted, the sealed journal's included. */
  get pending(): number {
    const sealed = this.sealed ? this.sealed.size - this.sealed.converted : 0;
    return sealed + this.journal.size - this.converted;
  }

  /** Exchanges journaled since the worker was last told (the host batches its announcements by them). */
  get unannounced(): number {
    return this.unannouncedExchanges;
  }

  /** Appends one exchange (throws an `AssopayError` when it cannot, see `Journal.append`). */
  append(meta: string, request: CapturedBody, response: CapturedBody): void {
    this.journal.append(meta, request, response);
    this.unconverted += 1;
    this.unannouncedExchanges += 1;
  }

  /** Tells the worker how far the journal reaches, when it has grown since it was last told. */
  announce(): void {
    this.unannouncedExchanges = 0;
    if (this.announced === this.journal.size) return;
    this.announced = this.journal.size;
    this.tell(this.generation, this.announced);
  }

  /** The worker has converted `exchanges` more, up to `upTo` in `generation`. */
  onConverted(generation: number, upTo: number, exchanges: number): void {
    this.unconverted -= exchanges;
    if (generation > this.workerGeneration) this.workerGeneration = generation;
    if (this.sealed?.generation === generation) {
      this.sealed.converted = upTo;
      if (upTo === this.sealed.size) this.dropSealed();
    } else if (generation === this.generation) {
      this.converted = upTo;
    }
  }

  /**
   * Empties the journal when everything in it is converted, or seals it when it has reached its mark
   * and may be sealed. Throws an `AssopayError` when sealing fails (recording must stop then).
   */
  tidy(): void {
    const size = this.journal.size;
    if (this.sealed) return;
    if (size > 0 && this.announced === size && this.converted === size) {
      this.journal.clear();
      if (this.journal.size === 0) this.nextGeneration();
    } else if (size >= LAG_HIGH.journalBytes && this.workerGeneration === this.generation) {
      // The worker reads the rest of this generation from the file it holds open, renamed or not.
      this.announce();
      const { sealed, next } = this.journal.seal();
      this.sealed = { generation: this.generation, path: sealed, size, converted: this.converted };
      this.journal = next;
      this.nextGeneration();
    }
  }

  /** Closes the journal; `remove` deletes it, and a sealed one left (everything is in the cassette). */
  close(remove: boolean): void {
    this.journal.close(remove);
    if (remove && this.sealed) this.dropSealed();
  }

  private nextGeneration(): void {
    this.generation += 1;
    this.announced = 0;
    this.converted = 0;
  }

  private dropSealed(): void {
    const { path } = this.sealed as Sealed;
    this.sealed = undefined;
    try {
      unlinkSync(path);
    } catch {
      // Left behind, it holds only exchanges the cassette has: recovery drops them by their ids.
    }
  }
}
