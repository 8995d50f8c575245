// An inline recorder (issue 46's decision): assopay record's forwarder and capture, and on the proxy's own
// thread, before the response ends, the recording pipeline (decompress, the ruleset's scan, redaction,
// YAML) and the cassette's writer, its document written out. The client's last bytes wait for that: no
// journal, no worker, no recovery, no lag bound. `--no-fast-paths` stores every body in its general form
// (no JSON-to-YAML transcoder, no raw text kept as its bytes, no byte scan guarding them).
// Usage: node --import tsx bench/systems/inline-record.ts --upstream URL --cassette FILE [--no-fast-paths]
import { createServer, type ServerResponse } from "node:http";
import { DocumentWriter } from "../../proxy/cassette/writer.js";
import { ignoreEvents } from "../../proxy/events.js";
import { BodyEncoder } from "../../proxy/record/body-encoder.js";
import type { CapturedBody } from "../../proxy/record/capture.js";
import { createForwarder, type Done } from "../../proxy/record/forwarder.js";
import { resolveRecorderOptions } from "../../proxy/record/options.js";
import { RecordingPipeline } from "../../proxy/record/pipeline.js";
import { planRecording } from "../../proxy/record/plan.js";
import { createRedactor } from "../../proxy/redaction/redact.js";
import { argument, serve } from "./listen.js";

if (process.argv.includes("--no-fast-paths")) BodyEncoder.prototype.encode = BodyEncoder.prototype.store;
const o = resolveRecorderOptions({
  upstream: argument("--upstream") ?? "",
  cassette: argument("--cassette") ?? "",
  mode: "all",
  maxCassetteBytes: Number.MAX_SAFE_INTEGER,
  onEvent: ignoreEvents,
});
const plan = await planRecording(o);
if (!plan.file) throw new Error("inline-record: no cassette to write");
const file = plan.file;
const writer = new DocumentWriter(file.fd, plan.nextId, (error) => {
  throw error;
});
const pipeline = new RecordingPipeline(
  writer,
  createRedactor(o.secretSalt, o.redactPii, true),
  [],
  ignoreEvents,
);
const forwarder = createForwarder(o);

/** Holds a response's writes from the moment its exchange is handed over until `release`. */
function holdable(res: ServerResponse) {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let held: (() => void)[] | undefined;
  res.write = ((...args: Parameters<typeof write>) => {
    if (!held) return write(...args);
    held.push(() => write(...args));
    return true;
  }) as typeof res.write;
  res.end = ((...args: Parameters<typeof end>) => {
    if (!held) return end(...args);
    held.push(() => end(...args));
    return res;
  }) as typeof res.end;
  return {
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const call of waiting) call();
    },
  };
}

const joined = (body: CapturedBody) => (Buffer.isBuffer(body) ? body : Buffer.concat(body));

const server = createServer((req, res) => {
  const gate = holdable(res);
  const recorded: Done = (outcome) => {
    if (!outcome.ok) return true;
    const x = outcome.exchange;
    gate.hold();
    pipeline.enqueue({ ...x, requestBody: joined(x.requestBody), responseBody: joined(x.responseBody) });
    // Written out (to the page cache, as the journal is) before the response's last bytes go.
    void pipeline.idle().then(() => {
      writer.flush();
      gate.release();
    });
    return true;
  };
  forwarder.forward(req, res, recorded);
});
await serve(server, async () => {
  forwarder.close();
  await pipeline.idle();
  writer.flush();
  await file.close();
});
