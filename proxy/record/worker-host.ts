import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ProxyEvent, ProxyEventSink } from "../events.js";
import { BodyArena } from "./arena.js";
import {
  bodyLength,
  type CapturedBody,
  type CapturedExchange,
  type CapturedNotification,
} from "./capture.js";
import type { Journal } from "./journal.js";
import type { FromWorker, ToWorker, WireMeta, WorkerInit } from "./worker-protocol.js";

/** The worker, from the built `.js` files, or from the TypeScript sources through tsx (tests, `npm run assopay`). */
function spawn(init: WorkerInit): Worker {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = new URL(fromSources ? "./worker.ts" : "./worker.js", import.meta.url);
  // A young generation larger than the default: the worker makes much short-lived garbage per exchange.
  const resourceLimits = { maxYoungGenerationSizeMb: 48 };
  if (!fromSources) return new Worker(entry, { workerData: init, resourceLimits });
  // tsx's ESM API (exports "./esm/api" → import), located from its package root.
  const root = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(join(root, "dist", "esm", "api", "index.mjs")).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData: init, resourceLimits });
}

/** How long the worker may take to start (compiling the sources, when run through tsx). */
const START_TIMEOUT_MS = 30_000;
/** Exchanges handed to the worker in one message at most. */
const BATCH_LIMIT = 64;
/** Body bytes that make a batch leave at once. */
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * Bytes handed over but not yet written above which the proxy stops taking new requests… (a bound on
 * memory: what waits here is in the journal already, so a crash loses none of it)
 */
const HIGH_WATER = 8 * 1024 * 1024;
/** …until the worker is back below this. */
const LOW_WATER = 2 * 1024 * 1024;
/** How long an exchange may wait for others to share its message. */
const BATCH_WAIT_MS = 10;

/**
 * The proxy's side of the recording worker: each captured exchange is first appended to the journal (on
 * disk before the proxy ends the response, see `journal.ts`), then handed over in batches (one message
 * every few milliseconds at most: the metadata as one JSON text, the bodies in one transferred buffer);
 * the worker does the rest (see `worker.ts`). Once the worker has written everything handed over, the
 * journal is emptied.
 */
export class RecordingWorker {
  private readonly worker: Worker;
  private readonly onEvent: ProxyEventSink;
  private readonly journal: Journal;
  private nextId: number;
  /** The JSON of each waiting exchange's `WireMeta` (written to the journal, then sent as is). */
  private metas: string[] = [];
  private arena = new BodyArena();
  private scheduled: NodeJS.Timeout | undefined;
  private closed: Promise<number> | undefined;
  private failed = false;
  private journalWarned = false;
  private writeFailed = false;
  private backlog = 0;
  private drainWaiters: (() => void)[] = [];

  private constructor(worker: Worker, onEvent: ProxyEventSink, journal: Journal, nextId: number) {
    this.worker = worker;
    this.onEvent = onEvent;
    this.journal = journal;
    this.nextId = nextId;
  }

  /** Starts the worker and waits until it is ready to record; exchanges are journaled to `journal`. */
  static start(init: WorkerInit, onEvent: ProxyEventSink, journal: Journal): Promise<RecordingWorker> {
    const worker = spawn(init);
    const host = new RecordingWorker(worker, onEvent, journal, init.nextId);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new Error(`the recording worker did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      worker.on("message", (message: FromWorker) => {
        if (message.kind === "ready") {
          clearTimeout(timer);
          resolve(host);
        } else if (message.kind === "events") host.report(message.events);
        else if (message.kind === "progress") host.progress(message.bytes);
      });
      worker.once("error", (error) => {
        host.failed = true;
        host.progress(0);
        onEvent({
          kind: "write-error",
          message: `the recording worker failed, recording stopped: ${error.message}`,
        });
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Queues an exchange (or a relayed notification) for the cassette. */
  enqueue(exchange: CapturedExchange<CapturedBody>, notification?: CapturedNotification<CapturedBody>): void {
    if (this.failed || this.closed) return;
    const x: CapturedNotification<CapturedBody> = notification ?? exchange;
    // Large bodies start a batch of their own rather than make the arena grow (and copy) under them.
    const length = bodyLength(x.requestBody) + bodyLength(x.responseBody);
    if (!this.arena.fits(length) && this.metas.length > 0) this.send();
    this.arena.reserve(length);
    const meta: WireMeta = {
      id: this.nextId++,
      startedAt: x.startedAt.getTime(),
      method: x.method,
      url: x.url,
      requestHeaders: x.requestHeaders,
      status: x.status,
      responseHeaders: x.responseHeaders,
      forwardedTo: x.forwardedTo,
      forwardStatus: x.forwardStatus,
      forwardError: x.forwardError,
      notification: notification !== undefined,
    };
    const json = JSON.stringify(meta);
    if (!this.journal.append(json, x.requestBody, x.responseBody) && !this.journalWarned) {
      this.journalWarned = true;
      this.onEvent({
        kind: "write-error",
        message: `writing the journal ${this.journal.path} failed: exchanges are recorded, but a crash now loses those not yet written`,
      });
    }
    this.metas.push(json);
    this.arena.put(x.requestBody);
    this.arena.put(x.responseBody);
    if (this.metas.length >= BATCH_LIMIT || this.arena.size >= BATCH_BYTES) this.send();
    else this.scheduled ??= setTimeout(() => this.send(), BATCH_WAIT_MS);
  }

  private send(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    if (this.metas.length === 0 || this.failed) return;
    const { buffer, bounds } = this.arena.take();
    const message: ToWorker = { kind: "batch", metas: `[${this.metas.join(",")}]`, bodies: buffer, bounds };
    this.backlog += buffer.byteLength + message.metas.length;
    this.worker.postMessage(message, [buffer]);
    this.metas = [];
  }

  /**
   * Whether the worker is too far behind to take more: the proxy then holds new requests back (their
   * bodies unread, so TCP slows their clients down) rather than let memory grow without bound.
   */
  get congested(): boolean {
    return this.backlog > HIGH_WATER && !this.failed;
  }

  /** Calls `resume` once the worker has caught up (at once if it is not congested). */
  whenDrained(resume: () => void): void {
    if (this.congested) this.drainWaiters.push(resume);
    else resume();
  }

  private report(events: readonly ProxyEvent[]): void {
    for (const event of events) {
      if (event.kind === "write-error") this.writeFailed = true;
      this.onEvent(event);
    }
  }

  private progress(bytes: number): void {
    this.backlog -= bytes;
    // Everything journaled is in the cassette: the journal starts again empty.
    if (this.backlog === 0 && this.metas.length === 0 && !this.failed && !this.writeFailed) {
      this.journal.clear();
    }
    if (this.backlog <= LOW_WATER || this.failed) for (const resume of this.drainWaiters.splice(0)) resume();
  }

  /** Hands over what is queued, waits until the worker has written everything, and stops it. */
  close(): Promise<number> {
    this.closed ??= new Promise<number>((resolve) => {
      this.send();
      if (this.failed) {
        // The journal stays: the next start recovers what it holds.
        this.journal.close(false);
        void this.worker.terminate();
        resolve(0);
        return;
      }
      this.worker.on("message", (message: FromWorker) => {
        if (message.kind !== "closed") return;
        this.report(message.events);
        // The worker ends by itself once it has said so; a stuck one is stopped after a grace period.
        const timer = setTimeout(() => void this.worker.terminate(), 5000);
        this.worker.once("exit", () => {
          clearTimeout(timer);
          // A journal whose exchanges could not all be written stays, for the next start to try again.
          this.journal.close(!this.writeFailed);
          resolve(message.recorded);
        });
      });
      this.worker.postMessage({ kind: "close" } satisfies ToWorker);
    });
    return this.closed;
  }
}
