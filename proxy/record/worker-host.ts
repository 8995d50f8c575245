import { unlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { runnableEntry } from "../../core/compiled.js";
import { AssopayError, formatError } from "../../core/errors.js";
import type { ProxyEvent, ProxyEventSink } from "../events.js";
import { teachEvents } from "../redaction/log.js";
import type { CapturedBody, CapturedExchange } from "./capture.js";
import type { Journal } from "./journal.js";
import { frameMeta } from "./journal.js";
import type { ResolvedRecorderOptions } from "./options.js";

/**
 * How far the cassette may fall behind the traffic, and how long the journal may grow. Past either high
 * mark the proxy holds new requests back (their bodies unread, so TCP slows their clients down) and lets
 * them through again once both are under their low marks. The lag after a burst is measured by
 * `npm run bench` (Recording).
 *
 * The journal is only ever emptied whole, once everything in it is in the cassette. Under traffic that
 * never pauses that moment never came by itself: the journal grew with the recording (1.9 GB beside a
 * 1.9 GB cassette after 14 s of 1 MB exchanges), twice the disk, every secret kept raw until the end, and
 * each append on pages the kernel had to find anew. So its length has a mark: there it is sealed and a
 * new one started (`JournalQueue`), and when it cannot be, because the last sealed one is not converted
 * yet, new requests wait.
 */

/** A lag: exchanges journaled but not yet in the cassette, and the journal's length in bytes. */
export interface Lag {
  readonly exchanges: number;
  readonly journalBytes: number;
}

/**
 * Past either of these, new requests wait. The count bounds the lag under many small exchanges (the
 * worker's cost is mostly per exchange: 4,096 of 2 KB are about 0.25 s of its time). The journal's length
 * (reached only while it cannot be sealed yet) bounds it under big ones: two marks of 1 MB bodies are
 * about 0.2 s of the worker's time.
 */
export const LAG_HIGH: Lag = Object.freeze({ exchanges: 4096, journalBytes: 16 * 1024 * 1024 });

/**
 * Waiting requests go on once the count is under this one and the journal is back under its high mark
 * (sealed in its turn, or emptied). The gap of the count is kept small: every request that
 * arrives meanwhile waits until the worker has written the gap, so it sets the worst latency under a load
 * the worker cannot keep up with.
 */
export const LAG_LOW: Pick<Lag, "exchanges"> = Object.freeze({ exchanges: 3072 });

/** Whether `lag` is past a high mark: new requests must wait. */
export function overBound(lag: Lag): boolean {
  return lag.exchanges > LAG_HIGH.exchanges || lag.journalBytes >= LAG_HIGH.journalBytes;
}

/** Whether `lag` is back under the low marks: waiting requests may go on. */
export function caughtUpEnough(lag: Lag): boolean {
  return lag.exchanges <= LAG_LOW.exchanges && lag.journalBytes < LAG_HIGH.journalBytes;
}

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
 * - sealed, once it has reached its mark (the lag bound, above) while the worker lags: renamed, a new
 *   journal in its place, the sealed one deleted once converted. Never while a sealed one is still
 *   there, nor before the worker has opened the current file: the worker opens each generation's file
 *   by the journal's name, which must still be that file's when it does.
 *
 * The host decides when to announce (it batches), and `tell` carries the announcement to the worker.
 */
export class JournalQueue {
  private generation = 0;
  /** The newest generation the worker has reported on: it has opened that generation's file. */
  private workerGeneration = 0;
  private announced: number;
  private converted: number;
  private sealed: Sealed | undefined;
  /** Exchanges journaled and converted by the worker (its secrets learned first), in every generation. */
  journaled = 0;
  convertedExchanges = 0;
  /** Exchanges journaled since the worker was last told how far the journal reaches (batched by them). */
  unannounced = 0;

  /** Takes over `journal` (what it already holds counts as converted). */
  constructor(
    private journal: Journal,
    private readonly tell: (generation: number, upTo: number) => void,
  ) {
    this.announced = journal.size;
    this.converted = journal.size;
  }

  /** Whether a write has failed (nothing more is journaled then). */
  get broken(): boolean {
    return this.journal.broken;
  }

  /** Exchanges not yet in the cassette, and the journal's length (see the lag bound). */
  get lag(): Lag {
    return { exchanges: this.journaled - this.convertedExchanges, journalBytes: this.journal.size };
  }

  /** Bytes journaled and not yet converted, the sealed journal's included. */
  get pending(): number {
    const sealed = this.sealed ? this.sealed.size - this.sealed.converted : 0;
    return sealed + this.journal.size - this.converted;
  }

  /** Appends one exchange (throws an `AssopayError` when it cannot, see `Journal.append`). */
  append(meta: string, request: CapturedBody, response: CapturedBody): void {
    this.journal.append(meta, request, response);
    this.journaled += 1;
    this.unannounced += 1;
  }

  /** Tells the worker how far the journal reaches, when it has grown since it was last told. */
  announce(): void {
    this.unannounced = 0;
    if (this.announced === this.journal.size) return;
    this.announced = this.journal.size;
    this.tell(this.generation, this.announced);
  }

  /** The worker has converted `exchanges` more, up to `upTo` in `generation`. */
  onConverted(generation: number, upTo: number, exchanges: number): void {
    this.convertedExchanges += exchanges;
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

/**
 * What the recording worker is started with: the recorder's redaction settings, and whether to report
 * every recorded exchange (problems always are); the cassette's file descriptor (opened `O_APPEND` and
 * locked by the main thread) and the first id; the journal it reads exchanges from (see `JournalTail`,
 * `worker.ts`), and its size at the start.
 */
export type WorkerInit = Pick<
  ResolvedRecorderOptions,
  "secretSalt" | "redactPii" | "signatureKeys" | "reportExchanges"
> & { fd: number; nextId: number; journal: string; journalFrom: number };

/**
 * `journal`: the journal now reaches `upTo` (in `generation`): read the exchanges up to there. The journal
 * is the only way exchanges reach the worker.
 */
export type ToWorker = { kind: "journal"; generation: number; upTo: number } | { kind: "close" };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "events"; events: ProxyEvent[] }
  /**
   * Every exchange of the journal up to `upTo` (of `generation`) is in the cassette (the page cache);
   * `exchanges` were read up to there since the last such message. `learned` (here and in `closed`): the
   * secrets the worker's redactor learned since its last message, for the log's redactor.
   */
  | { kind: "converted"; generation: number; upTo: number; exchanges: number; learned: string[] }
  | { kind: "closed"; recorded: number; events: ProxyEvent[]; learned: string[] };

/**
 * The worker, from compiled JavaScript (the built package, or dist/ when it matches the sources), or from
 * the TypeScript sources through tsx (see `runnableEntry`).
 */
function spawn(init: WorkerInit): Worker {
  const entry = runnableEntry(import.meta.url, "worker");
  const url = pathToFileURL(entry.file);
  // A young generation larger than the default: the worker makes much short-lived garbage per exchange.
  const resourceLimits = { maxYoungGenerationSizeMb: 48 };
  if (!entry.tsx) return new Worker(url, { workerData: init, resourceLimits });
  // tsx's ESM API (exports "./esm/api" → import), located from its package root.
  const root = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(join(root, "dist", "esm", "api", "index.mjs")).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { eval: true, workerData: init, resourceLimits });
}

/** Exchanges journaled before the worker is told at once. */
const BATCH_LIMIT = 64;
/** How long an exchange may wait for others to share its message. */
const BATCH_WAIT_MS = 10;

/**
 * The proxy's side of the recording worker: each captured exchange is appended to the journal (on disk
 * before the proxy ends the response, see `journal.ts`), and the worker is told how far the journal
 * reaches (one message every few milliseconds at most); it reads the exchanges back from the file and
 * does the rest (see `worker.ts`), at a lower priority than the proxy's thread. Should the journal fail
 * (a full disk), recording stops (see `stopped`).
 */
export class RecordingWorker {
  /** The journal; its `pending`: bytes recorded but not yet converted into the cassette. */
  readonly queue: JournalQueue;
  private scheduled: NodeJS.Timeout | undefined;
  private closed: Promise<number> | undefined;
  private failed = false;
  private writeFailed = false;
  private stop: AssopayError | undefined;
  private readonly onStop: ((error: AssopayError) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  /** The proxy's own lines, each waiting for the exchanges journaled before it (see `afterLearning`). */
  private held: { after: number; event: ProxyEvent }[] = [];
  private release: ProxyEventSink | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly onEvent: ProxyEventSink,
    journal: Journal,
    private nextId: number,
  ) {
    this.queue = new JournalQueue(journal, (generation, upTo) => {
      this.worker.postMessage({ kind: "journal", generation, upTo } satisfies ToWorker);
    });
  }

  /** Starts the worker and waits until it is ready to record; exchanges are journaled to `journal`. */
  static start(
    init: Omit<WorkerInit, "journal" | "journalFrom">,
    onEvent: ProxyEventSink,
    journal: Journal,
  ): Promise<RecordingWorker> {
    const worker = spawn({ ...init, journal: journal.path, journalFrom: journal.size });
    const host = new RecordingWorker(worker, onEvent, journal, init.nextId);
    return new Promise((resolve, reject) => {
      // No time limit on starting (compiling the sources through tsx on a loaded machine is slow): the
      // worker says it is ready, fails, or exits.
      const exited = (code: number) =>
        reject(new Error(`the recording worker stopped before it started (exit code ${code})`));
      worker.once("exit", exited);
      worker.on("message", (message: FromWorker) => {
        switch (message.kind) {
          case "ready":
            worker.off("exit", exited);
            resolve(host);
            return;
          case "events":
            host.report(message.events);
            return;
          case "converted":
            teachEvents(onEvent, message.learned);
            host.caughtUp(message.generation, message.upTo, message.exchanges);
            return;
          case "closed":
            return; // awaited by `close`
        }
      });
      worker.once("error", (error) => {
        host.failed = true;
        host.settle();
        onEvent({
          kind: "write-error",
          message: `the recording worker failed, recording stopped: ${error.message}`,
        });
        reject(error);
      });
    });
  }

  /**
   * Journals an exchange (or a relayed notification) for the cassette. False when it could not be
   * journaled: recording has stopped (see `stopped`), and the caller must not let its client have the
   * whole response.
   */
  enqueue(x: CapturedExchange<CapturedBody>): boolean {
    if (this.stop || this.closed) return false;
    try {
      this.queue.append(frameMeta(this.nextId, x), x.requestBody, x.responseBody);
    } catch (error) {
      this.stopRecording(error);
      return false;
    }
    this.nextId += 1;
    this.tidy();
    // Past a mark the proxy waits for the worker: it is told at once, not after the batch's wait.
    if (this.queue.unannounced >= BATCH_LIMIT || this.congested) this.send();
    else this.scheduled ??= setTimeout(() => this.send(), BATCH_WAIT_MS);
    return true;
  }

  /** Why recording stopped (the journal could not be written); undefined while it goes on. */
  get stopped(): AssopayError | undefined {
    return this.stop;
  }

  /** Calls `listener` once, if recording stops (the journal cannot be written). */
  onStopped(listener: (error: AssopayError) => void): void {
    if (this.stop) listener(this.stop);
    else this.onStop.push(listener);
  }

  private stopRecording(error: unknown): void {
    const stop =
      error instanceof AssopayError
        ? error
        : new AssopayError("internal", `journaling failed: ${(error as Error).message}`, { cause: error });
    this.stop = stop;
    this.onEvent({ kind: "write-error", message: formatError(stop) });
    for (const listener of this.onStop.splice(0)) listener(stop);
    this.settle();
  }

  /** Tells the worker how far the journal reaches. */
  private send(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    if (!this.failed) this.queue.announce();
  }

  /** Whether the worker is past the lag bound (above): new requests wait. */
  get congested(): boolean {
    return this.bounded && overBound(this.queue.lag);
  }

  /**
   * Whether the lag bound holds requests at all: not once recording has stopped or a write has failed
   * (a journal that cannot be emptied must not hold them forever: the next append fails and says why).
   */
  private get bounded(): boolean {
    return !(this.failed || this.writeFailed || this.stop || this.queue.broken);
  }

  private get drained(): boolean {
    return !this.bounded || caughtUpEnough(this.queue.lag);
  }

  /** Calls `resume` once the worker has caught up (at once if it is not congested). */
  whenDrained(resume: () => void): void {
    if (!this.congested) {
      resume();
      return;
    }
    this.drainWaiters.push(resume);
    // A journal past its mark that may be emptied or sealed at once (one the recorder started with).
    this.settle();
  }

  /**
   * The sink for the lines the proxy's own thread reports (a failed exchange, a refusal, a miss): each is
   * passed on once the worker has converted every exchange journaled before it, and so has taught the
   * log's redactor every secret learned from them (a token issued in a response body, then met in the
   * path of a failed exchange, is printed as its placeholder, however busy the machine). In order; at
   * once when nothing is pending, or once recording has stopped or the worker has failed.
   */
  afterLearning(sink: ProxyEventSink): ProxyEventSink {
    this.release = sink;
    return (event) => {
      const { journaled, convertedExchanges } = this.queue;
      if (this.held.length === 0 && (convertedExchanges >= journaled || !this.bounded)) sink(event);
      else this.held.push({ after: journaled, event });
    };
  }

  /** Passes on the held lines whose exchanges are converted (all of them with `all`). */
  private releaseHeld(all: boolean): void {
    while (this.held.length > 0) {
      const first = this.held[0] as { after: number; event: ProxyEvent };
      if (!all && this.bounded && first.after > this.queue.convertedExchanges) return;
      this.held.shift();
      this.release?.(first.event);
    }
  }

  private report(events: readonly ProxyEvent[]): void {
    for (const event of events) {
      if (event.kind === "write-error") this.writeFailed = true;
      this.onEvent(event);
    }
  }

  private caughtUp(generation: number, upTo: number, exchanges: number): void {
    this.queue.onConverted(generation, upTo, exchanges);
    this.settle();
  }

  /** Empties or seals the journal when it may (not once recording has stopped); a seal that fails stops it. */
  private tidy(): void {
    if (!this.bounded) return;
    try {
      this.queue.tidy();
    } catch (error) {
      this.stopRecording(error);
    }
  }

  private settle(): void {
    this.tidy();
    this.releaseHeld(false);
    if (this.drained) for (const resume of this.drainWaiters.splice(0)) resume();
  }

  /** Announces what is journaled, waits until the worker has written everything, and stops it. */
  close(): Promise<number> {
    this.closed ??= new Promise<number>((resolve) => {
      this.send();
      if (this.failed) {
        // The journal stays: the next start recovers what it holds.
        this.queue.close(false);
        this.releaseHeld(true);
        void this.worker.terminate();
        resolve(0);
        return;
      }
      this.worker.on("message", (message: FromWorker) => {
        if (message.kind !== "closed") return;
        teachEvents(this.onEvent, message.learned);
        this.report(message.events);
        this.releaseHeld(true);
        // The worker ends by itself once it has said so; a stuck one is stopped after a grace period.
        const timer = setTimeout(() => void this.worker.terminate(), 5000);
        this.worker.once("exit", () => {
          clearTimeout(timer);
          // A journal whose exchanges could not all be written stays, for the next start to try again.
          this.queue.close(!this.writeFailed && !this.stop);
          resolve(message.recorded);
        });
      });
      this.worker.postMessage({ kind: "close" } satisfies ToWorker);
    });
    return this.closed;
  }
}
