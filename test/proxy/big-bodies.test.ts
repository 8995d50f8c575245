import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { bodyBytes } from "../../proxy/cassette/body.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { YamlBlock } from "../../proxy/cassette/yaml-scalar.js";
import { BodyEncoder } from "../../proxy/record/body-encoder.js";
import { startRecorder } from "../../proxy/record/server.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { startReplay } from "../../proxy/replay/server.js";
import { runLint } from "../../specs/lint/run.js";
import { send, tempDir } from "./support/http.js";

/** A JSON listing of about `bytes` bytes, one line or pretty-printed, nothing in it to redact. */
function listing(bytes: number, pretty: boolean): string {
  const entry = (i: number) => ({
    id: 8_868_440 + i,
    payer: { city: "Lyon" },
    amount: 4599,
    note: "Adhésion",
  });
  const data: unknown[] = [];
  const page = { data, pagination: { pageSize: 20, continuationToken: "MjAyNTA2MjVfMTkxNDMzMw+/=" } };
  const per = JSON.stringify(entry(0), null, pretty ? 2 : undefined).length + 8;
  for (let i = 0; i < bytes / per; i++) data.push(entry(i));
  return JSON.stringify(page, null, pretty ? 2 : undefined);
}

/** A CSV export of about `bytes` bytes (text/csv, a line per payment). */
function csv(bytes: number): string {
  const line = (i: number) => `${8_868_440 + i};Jeanne Martin;45,99;2025-09-30;Processed\n`;
  let out = "id;payer;amount;date;state\n";
  for (let i = 0; out.length < bytes; i++) out += line(i);
  return out;
}

const MB = 1024 * 1024;

/** What is planted, at the start, the middle and the end of a 1 MB listing (each needs redaction). */
const PLANTED = {
  "secret key": (n: number) => ({
    text: `"client_secret":"cs-planted-${n}-0123456789"`,
    secret: `cs-planted-${n}-0123456789`,
  }),
  card: (n: number) => ({
    text: `"note":"card 4111 1111 1111 ${1110 + n}"`,
    secret: `4111 1111 1111 ${1110 + n}`,
  }),
  iban: () => ({ text: `"note":"FR7630006000011234567890189"`, secret: "FR7630006000011234567890189" }),
  token: (n: number) => ({
    text: `"note":"ghp_${"a1B2c3".repeat(6)}${n}"`,
    secret: `ghp_${"a1B2c3".repeat(6)}${n}`,
  }),
} as const;
const WHERE = ["start", "middle", "end"] as const;

/** A valid card number (Luhn) whose last group is `1110 + n` for the n that makes it valid. */
function luhnCardIndex(): number {
  for (let n = 0; n < 10; n++) {
    const digits = `411111111111${1110 + n}`;
    let sum = 0;
    for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
      let d = Number(digits[i]);
      if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    if (sum % 10 === 0) return n;
  }
  throw new Error("no Luhn-valid card number");
}

/** A one-line listing with `field` (a JSON member) at the start, middle or end of its entries. */
function plantedListing(field: string, where: (typeof WHERE)[number]): string {
  const clean = listing(MB, false);
  const marker = '{"id":';
  const at =
    where === "start"
      ? clean.indexOf(marker)
      : where === "middle"
        ? clean.indexOf(marker, clean.length / 2)
        : clean.lastIndexOf(marker);
  return `${clean.slice(0, at)}{${field},${clean.slice(at + 1)}`;
}

interface Served {
  path: string;
  type: string;
  body: Buffer;
  /** The secret planted in it (to be redacted), if any. */
  secret?: string;
}

function upstream(routes: readonly Served[]): Promise<Server> {
  const byPath = new Map(routes.map((route) => [route.path, route]));
  const server = createServer((request, response) => {
    const route = byPath.get(request.url ?? "");
    if (!route) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": route.type, "content-length": route.body.length });
    response.end(route.body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("big bodies: written as they came when clean, redacted as always when not", () => {
  const card = luhnCardIndex();
  const routes: Served[] = [
    { path: "/clean-line", type: "application/json", body: Buffer.from(listing(MB, false)) },
    { path: "/clean-pretty", type: "application/json; charset=utf-8", body: Buffer.from(listing(MB, true)) },
    { path: "/clean-csv", type: "text/csv", body: Buffer.from(csv(MB)) },
  ];
  for (const [kind, plant] of Object.entries(PLANTED)) {
    for (const where of WHERE) {
      const { text, secret } = plant(kind === "card" ? card : WHERE.indexOf(where));
      const body = Buffer.from(plantedListing(text, where));
      routes.push({ path: `/${kind.replace(" ", "-")}-${where}`, type: "application/json", body, secret });
    }
  }
  let server: Server;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let cassette: string;
  let yaml: string;
  const replayed = new Map<string, Buffer>();

  beforeAll(async () => {
    server = await upstream(routes);
    temp = await tempDir();
    cassette = temp.file("big.yaml");
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      cassette,
    });
    for (const route of routes)
      expect((await send(`${recorder.url}${route.path}`)).body.equals(route.body)).toBe(true);
    expect((await recorder.close()).recorded).toBe(routes.length);
    yaml = await readFile(cassette, "utf8");
    const replay = await startReplay({ cassettes: cassette });
    for (const route of routes) replayed.set(route.path, (await send(`${replay.url}${route.path}`)).body);
    await replay.close();
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await temp.remove();
  });

  /** The cassette document of `path`. */
  function documentOf(path: string): string {
    const start = yaml.indexOf(`\n  path: ${path}\n`);
    return yaml.slice(start, yaml.indexOf("\n...\n", start) + 1);
  }

  it("writes a clean big body as a literal block of its own text, one line or many, and replays its bytes", () => {
    for (const path of ["/clean-line", "/clean-pretty", "/clean-csv"]) {
      const route = routes.find((r) => r.path === path) as Served;
      const doc = documentOf(path);
      expect(doc, path).toMatch(/\n {2}body:\n {4}text: \|[-+]?\n/);
      // The text sits in the cassette as it came: each line, indented, nothing escaped.
      const lines = route.body.toString("utf8").split("\n");
      // (booleans: a failed match of a megabyte would print the megabyte)
      expect(doc.includes(`\n      ${lines[0]}\n`), path).toBe(true);
      expect(doc.includes(`\n      ${lines[Math.floor(lines.length / 2)]}\n`), path).toBe(true);
      expect(replayed.get(path)?.equals(route.body), path).toBe(true);
    }
  });

  it("reads back (the cassette loader, as lint and verify use it) as the very text recorded", async () => {
    const loaded = await loadCassette(cassette);
    for (const route of routes.filter((r) => r.secret === undefined)) {
      const found = loaded.interactions.find((i) => i.request.path === route.path);
      expect(bodyBytes(found?.response.body).equals(route.body), route.path).toBe(true);
    }
  });

  it("lint reads the cassette: one outcome per interaction", async () => {
    const report = await runLint(loadContract(), [cassette], "2026-11-24" as IsoDay);
    expect(report.interactions).toHaveLength(routes.length);
  });

  it("takes the fast path (the body's own bytes, no parse) only for the clean bodies", () => {
    const encoder = new BodyEncoder(createRedactor(undefined, false, true));
    for (const route of routes) {
      const encoded = encoder.encode({ wire: route.body }, { "content-type": route.type });
      const fast = encoded !== undefined && "text" in encoded && encoded.text instanceof YamlBlock;
      expect(fast, route.path).toBe(route.secret === undefined);
    }
  });

  it("redacts a secret key, a card number, an IBAN and a token at the start, middle or end of 1 MB", () => {
    const planted = routes.filter((r) => r.secret !== undefined);
    expect(planted).toHaveLength(12);
    for (const route of planted) {
      const secret = route.secret as string;
      expect(yaml.includes(secret), route.path).toBe(false);
      const expected = route.body.toString("utf8").replace(secret, placeholderFor(secret));
      expect(replayed.get(route.path)?.toString("utf8") === expected, route.path).toBe(true);
    }
  });
});
