// The recorder's body scans alone, in-process: CPU time (process.cpuUsage, user + system) per body of the
// scan a fast path runs before writing a body as it came. Run against a checkout (its sources, through
// tsx), so that two builds are measured by the same script in one run:
//   node --import tsx scripts/scan-cpu.ts /work/main && node --import tsx scripts/scan-cpu.ts .
// The bodies are the bench's JSON listing pages (bench/systems/body.ts), clean: every scan runs to the end.
// A checkout from before 22f6b91 (the large-text fast path in proxy/cassette/raw-text.ts) is measured by
// its own scripts/scan-cpu.ts.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

type Scan = (body: Buffer) => unknown;

const root = resolve(process.argv[2] ?? ".");
const load = (path: string): Promise<Record<string, unknown>> =>
  import(pathToFileURL(`${root}/${path}`).href);

const { jsonBody } = (await load("bench/systems/body.ts")) as { jsonBody: (bytes: number) => Buffer };
const { createRedactor } = (await load("proxy/redaction/redactor.ts")) as {
  createRedactor: (
    salt: undefined,
    pii: boolean,
    learn: boolean,
  ) => { secrets: { redact(s: string): string } };
};
const { BodyEncoder, rawText } = (await load("proxy/record/body-encoder.ts")) as {
  BodyEncoder: new (
    r: unknown,
  ) => { encode(body: { wire: Buffer }, headers: Record<string, string>): unknown };
  rawText: (b: Buffer, r: unknown, indent: number) => unknown;
};
const { YamlEmitter } = (await load("proxy/cassette/emit.ts")) as {
  YamlEmitter: new () => { pieces(value: Record<string, unknown>): unknown };
};
const { scanBody } = (await load("proxy/redaction/scan.ts")) as {
  scanBody: (bytes: Buffer, r: unknown, options: object) => unknown;
};

const r = createRedactor(undefined, false, true);
// Two secrets met earlier in the session (an access token, a signing key), as a recorder has.
r.secrets.redact("tok-0123456789abcdef");
r.secrets.redact("key-fedcba9876543210");

const jsonScan: Scan = (b) => scanBody(b, r, { keys: false, literal: false });

function cpu(scan: Scan, body: Buffer, rounds: number): number {
  for (let i = 0; i < 5; i++) scan(body);
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) scan(body);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}

const mb = jsonBody(1024 * 1024);
const pretty = Buffer.from(JSON.stringify(JSON.parse(mb.toString()), null, 2));
const csv = Buffer.from(
  Array.from({ length: 18_000 }, (_, i) => `${8_868_440 + i};Jean Durant;45,99;2025-09-30;Processed\n`).join(
    "",
  ),
);
const encoder = new BodyEncoder(r);
const emitter = new YamlEmitter();
/** A body encoded as the recorder does, then its document emitted (the fast path's work, or the general one's). */
const recorded =
  (type: string): Scan =>
  (b) =>
    emitter.pieces({
      response: { status: 200, body: encoder.encode({ wire: b }, { "content-type": type }) },
    });
const kb = jsonBody(2048);
if (rawText(mb, r, 6) === undefined) throw new Error("the 1 MB body was not taken by the raw path");
const rows: [string, number][] = [
  ["1 MB JSON, raw path (scan + literal checks)", cpu((b) => rawText(b, r, 6), mb, 300)],
  ["1 MB JSON, transcoder path's scan", cpu(jsonScan, mb, 300)],
  ["2 KB JSON, transcoder path's scan", cpu(jsonScan, kb, 100_000)],
  [
    `${(pretty.length / 1024 / 1024).toFixed(1)} MB pretty-printed JSON: encoded and emitted`,
    cpu(recorded("application/json"), pretty, 100),
  ],
  [
    `${(csv.length / 1024 / 1024).toFixed(1)} MB CSV: encoded and emitted`,
    cpu(recorded("text/csv"), csv, 100),
  ],
];
process.stdout.write(`${root}\n`);
for (const [name, micros] of rows) process.stdout.write(`  ${name}: ${micros.toFixed(2)} µs CPU per body\n`);
