// The recording worker's pipeline alone, in this process (no network, no other processes): CPU time per
// captured exchange to decode, redact, serialise and append it. The recording suite's "in-process
// pipeline" rows (bench/suites/recording.ts).
// Usage: node --import tsx bench/systems/worker-pipeline.ts [--size BYTES] [--count N] [--rounds N]
//   → stdout: PIPELINE {"size":BYTES,"perExchangeUs":[each round's user + system µs per exchange]}
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DocumentWriter } from "../../proxy/cassette/writer.js";
import type { CapturedExchange } from "../../proxy/record/capture.js";
import { RecordingPipeline } from "../../proxy/record/pipeline.js";
import { createRedactor } from "../../proxy/redaction/redact.js";
import { jsonBody } from "./body.js";
import { argument } from "./listen.js";

const body = jsonBody(Number(argument("--size") ?? 2048));
const count = Number(argument("--count") ?? 100_000);
const folder = mkdtempSync(join(tmpdir(), "assopay-pipeline-"));
const fd = openSync(join(folder, "cassette.yaml"), "w");
const writer = new DocumentWriter(fd, 1, (error) => {
  throw error;
});
const pipeline = new RecordingPipeline(writer, createRedactor(undefined, false, true), [], () => undefined);
const exchange = (i: number): CapturedExchange => ({
  startedAt: new Date(),
  method: "GET",
  url: `/v5/organizations/bench/items?pageSize=20&i=${i}`,
  requestHeaders: { host: "127.0.0.1:8080", connection: "keep-alive", "user-agent": "autocannon" },
  requestBody: Buffer.alloc(0),
  status: 200,
  responseHeaders: {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.length),
    date: new Date().toUTCString(),
  },
  responseBody: body,
});
const perExchangeUs: number[] = [];
try {
  for (let round = 1; round <= Number(argument("--rounds") ?? 3); round++) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      pipeline.enqueue(exchange(i));
      // Batches of 64, as the proxy hands them over, with a turn of the event loop between them.
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
    await pipeline.idle();
    writer.flush();
    const used = process.cpuUsage(cpu);
    perExchangeUs.push((used.user + used.system) / count);
  }
  process.stdout.write(`PIPELINE ${JSON.stringify({ size: body.length, perExchangeUs })}\n`);
} finally {
  closeSync(fd);
  rmSync(folder, { recursive: true, force: true });
}
