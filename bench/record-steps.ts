// The recorder's steps on one big body, each alone, in this process: CPU time (user + system) per body
// of what happens to it between the upstream and the cassette. The "floor" rows of bench/history/performance-log.md
// (issue 28): which steps a recording of such a body cannot avoid, and what the body scan costs beside them.
// Usage: node --import tsx bench/record-steps.ts [--size BYTES] [--rounds N]
import { isUtf8 } from "node:buffer";
import { ftruncateSync, mkdtempSync, openSync, readSync, rmSync, writevSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DocumentWriter } from "../proxy/cassette/writer.js";
import { rawText } from "../proxy/record/body-encoder.js";
import { frameStart } from "../proxy/record/journal.js";
import { createRedactor } from "../proxy/redaction/redact.js";
import { scanBody } from "../proxy/redaction/scan.js";
import { jsonBody } from "./systems/body.js";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: String(1024 * 1024) },
    rounds: { type: "string", default: "200" },
  },
});
const rounds = Number(values.rounds);
const body = jsonBody(Number(values.size));
const redactor = createRedactor(undefined, false, true);
const folder = mkdtempSync(join(tmpdir(), "assopay-steps-"));
// The body as the proxy captures it: the chunks it came in (64 KB each from a socket).
const chunks: Buffer[] = [];
for (let at = 0; at < body.length; at += 65536) chunks.push(body.subarray(at, at + 65536));
const meta = JSON.stringify({ id: 1, method: "GET", url: "/v5/x", status: 200, startedAt: 0 });
const frame = [frameStart(meta, [], chunks), ...chunks];
const frameLength = frame.reduce((n, part) => n + part.length, 0);
const back = Buffer.allocUnsafe(frameLength);
const journal = openSync(join(folder, "journal"), "w+");
const writer = new DocumentWriter(openSync(join(folder, "cassette.yaml"), "w"), 1, (error) => {
  throw error;
});

function perBody(step: string, run: (round: number) => void): void {
  for (let round = 0; round < 5; round++) run(round);
  const start = process.cpuUsage();
  for (let round = 0; round < rounds; round++) run(round);
  const used = process.cpuUsage(start);
  console.log(`${step.padEnd(62)} ${((used.user + used.system) / rounds).toFixed(0).padStart(6)} µs`);
}

let written = 0;
try {
  console.log(`${body.length} B JSON body, ${rounds} rounds per step, CPU time per body:`);
  perBody("proxy: frame head, checksums of the body (CRC-32)", () => frameStart(meta, [], chunks));
  perBody("proxy: journal append (writev; emptied every 64 bodies)", (round) => {
    writevSync(journal, frame);
    if (round % 64 === 63) ftruncateSync(journal, 0);
  });
  perBody("proxy + worker: journal append, then the worker reads it back", () => {
    writevSync(journal, frame, written);
    readSync(journal, back, 0, frameLength, written);
    written += frameLength;
    if (written > 64 * frameLength) {
      ftruncateSync(journal, 0);
      written = 0;
    }
  });
  perBody("worker: UTF-8 check", () => isUtf8(body));
  perBody("worker: body scan (keys, literal-block checks)", () =>
    scanBody(body, redactor, { keys: true, literal: true }),
  );
  perBody("worker: literal block (UTF-8 check, scan, block)", () => rawText(body, redactor, 6));
  const block = rawText(body, redactor, 6);
  if (!block) throw new Error("the body was not taken by the raw path");
  perBody("worker: cassette document appended and written", () => {
    writer.append({
      recordedAt: "2026-11-25T00:00:00.000Z",
      request: { method: "GET", path: "/v5/x", headers: {} },
      response: { status: 200, headers: { "content-type": "application/json" }, body: { text: block } },
    });
    writer.flush();
  });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
