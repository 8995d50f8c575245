/**
 * The recording worker thread: decodes, redacts, serialises and appends every captured exchange, so that
 * the proxy's own thread only streams bytes. Started by `worker-host.ts`; messages are `ToWorker` and
 * `FromWorker` there.
 */
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { DocumentWriter } from "../cassette/writer.js";
import type { ProxyEvent } from "../events.js";
import { createRedactor } from "../redaction/redact.js";
import { JournalTail } from "./journal-tail.js";
import { RecordingPipeline } from "./pipeline.js";
import type { FromWorker, ToWorker, WorkerInit } from "./worker-protocol.js";

/**
 * Lowers this thread's scheduling priority to the lowest (on Linux a priority is per thread: the proxy's
 * own thread keeps its own). Recording then takes the CPU time the clients' requests leave over instead
 * of taking turns with them, which on a machine with few cores is what their latency and throughput
 * depend on. What waits meanwhile is in the journal, on disk (see `journal-tail.ts`); when it falls too
 * far behind, the high-water mark of `worker-host.ts` slows the clients down, and the worker then has
 * the CPU. Where the system refuses, recording simply runs at normal priority.
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
    if (!init.events && (event.kind === "recorded" || event.kind === "notification")) return;
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
  const redactor = createRedactor(init.salt, init.pii, true);
  const pipeline = new RecordingPipeline(writer, redactor, init.signatureKeys, report);
  const tail = new JournalTail(init.journal, init.journalFrom);
  /** Runs `then` once everything queued is written (to the page cache): the proxy may then empty the journal. */
  const written = (then: () => void) =>
    pipeline.idle().then(() => {
      writer.flush();
      const learned = redactor.secrets.takeLearned();
      if (learned.length > 0) send({ kind: "learned", secrets: learned });
      then();
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
      written(() => {
        unwritten -= 1;
        send({ kind: "converted", generation, upTo, exchanges });
      });
      return;
    }
    written(() => {
      if (scheduled) clearImmediate(scheduled);
      send({ kind: "closed", recorded: writer.count, events: events.splice(0) });
      tail.close();
      port.close();
    });
  });
  send({ kind: "ready" });
}

if (parentPort) run(parentPort, workerData as WorkerInit);
