/**
 * The recording worker thread: decodes, redacts, serialises and appends every captured exchange, so that
 * the proxy's own thread only streams bytes. Started by `worker-host.ts`; messages are `ToWorker` and
 * `FromWorker` there.
 */

import { closeSync, openSync, readSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { DocumentWriter } from "../cassette/writer.js";
import type { ProxyEvent } from "../events.js";
import { createRedactor } from "../redaction/redact.js";
import { type JournalEntry, parseFrames } from "./journal.js";
import { RecordingPipeline } from "./pipeline.js";
import type { FromWorker, ToWorker, WorkerInit } from "./worker-host.js";

/**
 * The worker's reading end of the journal (see `journal.ts`). The proxy's thread appends frames and then
 * says how far the journal reaches (`upTo`, in a generation: each time the journal is emptied or sealed
 * a new one starts at offset 0); the tail reads what lies between where it stopped and there, as
 * exchanges. It opens the journal's name again for each new generation, and reads the rest of a sealed
 * one from the file it holds open (the host seals no generation before the tail has reported on it:
 * `JournalQueue`, `worker-host.ts`).
 * Everything up to `upTo` was written whole before it was announced, so a frame cut short there means a
 * broken journal, not one still being written. The frames' content checksums are not checked again here
 * (see `parseFrames`): they guard journals left behind by a crash, which recovery reads.
 */
export class JournalTail {
  private fd: number;
  private generation = 0;
  private offset: number;
  /** Memory read into, kept from one read to the next (a fresh buffer per read costs an mmap and faults). */
  private buffer = Buffer.alloc(0);

  /** Opens `path` for reading, starting at `from` (the journal's size when the recorder started). */
  constructor(
    private readonly path: string,
    from: number,
  ) {
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

/**
 * Lowers this thread's scheduling priority to the lowest (on Linux a priority is per thread: the proxy's
 * own thread keeps its own). Recording then takes the CPU time the clients' requests leave over instead
 * of taking turns with them, which on a machine with few cores is what their latency and throughput
 * depend on. What waits meanwhile is in the journal, on disk; when it falls too far behind, the lag
 * bound of `worker-host.ts` slows the clients down, and the worker then has the CPU. Where the system
 * refuses, recording simply runs at normal priority.
 */
function yieldToTheProxy(): void {
  try {
    setPriority(19);
  } catch {
    // not permitted here: normal priority
  }
}

function run(port: NonNullable<typeof parentPort>, init: WorkerInit): void {
  yieldToTheProxy();
  const events: ProxyEvent[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const send = (message: FromWorker) => port.postMessage(message);
  const report = (event: ProxyEvent) => {
    if (!init.reportExchanges && (event.kind === "recorded" || event.kind === "notification")) return;
    events.push(event);
    scheduled ??= setImmediate(() => {
      scheduled = undefined;
      send({ kind: "events", events: events.splice(0) });
    });
  };
  const writer = new DocumentWriter(init.fd, init.nextId, (error) =>
    report({
      kind: "write-error",
      message: `writing the cassette failed, recording stopped: ${error.message}`,
    }),
  );
  const redactor = createRedactor(init.secretSalt, init.redactPii, true);
  const pipeline = new RecordingPipeline(writer, redactor, init.signatureKeys, report);
  const tail = new JournalTail(init.journal, init.journalFrom);
  /** Runs `then` once everything queued is written (to the page cache): the proxy may then empty the journal. */
  const written = (then: (learned: string[]) => void) =>
    pipeline.idle().then(() => {
      writer.flush();
      then(redactor.secrets.takeLearned());
    });
  /** Batches read and not yet written: while there are some, their bodies are still in use. */
  let unwritten = 0;
  port.on("message", (message: ToWorker) => {
    if (message.kind === "journal") {
      let entries: ReturnType<JournalTail["read"]>;
      try {
        entries = tail.read(message.generation, message.upTo, unwritten === 0);
      } catch (error) {
        // The journal stays on disk (the host keeps it), for the next start to recover what it can.
        report({ kind: "write-error", message: `reading the journal failed: ${(error as Error).message}` });
        return;
      }
      unwritten += 1;
      for (const entry of entries) pipeline.enqueue(entry.exchange, entry.id);
      const { generation, upTo } = message;
      const exchanges = entries.length;
      written((learned) => {
        unwritten -= 1;
        send({ kind: "converted", generation, upTo, exchanges, learned });
      });
      return;
    }
    written((learned) => {
      if (scheduled) clearImmediate(scheduled);
      send({ kind: "closed", recorded: writer.count, events: events.splice(0), learned });
      tail.close();
      port.close();
    });
  });
  send({ kind: "ready" });
}

if (parentPort) run(parentPort, workerData as WorkerInit);
