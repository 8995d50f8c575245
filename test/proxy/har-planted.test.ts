import { isUtf8 } from "node:buffer";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { HarEntry, HarNameValue } from "../../proxy/har/format.js";
import { importHar } from "../../proxy/har/import.js";
import { tempDir } from "./support/http.js";
import { forms, plantedCorpus, servePlanted } from "./support/planted-corpus.js";

const { p, responses, session } = plantedCorpus();

function pairs(raw: readonly string[]): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i] ?? "", value: raw[i + 1] ?? "" });
  return out;
}

/** HAR content of bytes: text when they are UTF-8, else base64 (as devtools write them). */
function content(bytes: Buffer): { text?: string; encoding?: string } {
  if (bytes.length === 0) return {};
  return isUtf8(bytes)
    ? { text: bytes.toString("utf8") }
    : { text: bytes.toString("base64"), encoding: "base64" };
}

/**
 * A capturing forwarder, as a browser's devtools or an HTTP debugging proxy sees a session: every
 * exchange with `origin` written down as a HAR entry, secrets and all; a failed one with status 0.
 */
async function capture(origin: string, entries: HarEntry[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const startedDateTime = new Date().toISOString();
      const entry = (status: number, headers: HarNameValue[], answer: Buffer): HarEntry => ({
        startedDateTime,
        time: 1,
        request: {
          method: req.method ?? "GET",
          url: `${origin}${req.url}`,
          httpVersion: "HTTP/1.1",
          cookies: [],
          headers: pairs(req.rawHeaders),
          queryString: [],
          ...(body.length > 0
            ? { postData: { mimeType: req.headers["content-type"] ?? "", ...content(body) } }
            : {}),
          headersSize: -1,
          bodySize: body.length,
        },
        response: {
          status,
          statusText: "",
          httpVersion: "HTTP/1.1",
          cookies: [],
          headers,
          content: { size: answer.length, mimeType: "", ...content(answer) },
          redirectURL: "",
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      });
      const forward = request(
        `${origin}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const bytes = Buffer.concat(parts);
            entries.push(entry(answer.statusCode ?? 0, pairs(answer.rawHeaders), bytes));
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(bytes);
          });
        },
      );
      forward.on("error", () => {
        entries.push(entry(0, [], Buffer.alloc(0)));
        req.socket.destroy();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("the planted-secret corpus, saved as HAR and imported", () => {
  let upstream: Server;
  let capturing: Server;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const entries: HarEntry[] = [];
  const notices: string[] = [];
  let harText = "";
  let written = "";

  beforeAll(async () => {
    temp = await tempDir();
    upstream = await servePlanted(responses());
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    capturing = await capture(origin, entries);
    await session(`http://127.0.0.1:${(capturing.address() as AddressInfo).port}`);
    harText = JSON.stringify({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } });
    await writeFile(temp.file("planted.har"), harText);
    await importHar(temp.file("planted.har"), temp.file("planted.yaml"), {
      onNotice: (message) => notices.push(message),
    });
    written = await readFile(temp.file("planted.yaml"), "utf8");
    for (const i of (await loadCassette(temp.file("planted.yaml"))).interactions) {
      for (const body of [i.request.body, i.response.body]) {
        if (body && "base64" in body) written += Buffer.from(body.base64, "base64").toString("utf8");
      }
    }
  });

  afterAll(async () => {
    await new Promise((resolve) => capturing.close(resolve));
    await new Promise((resolve) => upstream.close(resolve));
    await temp.remove();
  });

  it("holds every planted secret in the HAR, and imports every answered exchange", () => {
    expect(p.all.length).toBeGreaterThanOrEqual(60);
    const inHar = p.all.filter(({ value }) => forms(value).some((f) => harText.includes(f)));
    expect(inHar.length).toBeGreaterThanOrEqual(60);
    expect(notices.at(-1)).toMatch(/^imported 31 of 34 entries .*; left out 3 never answered$/);
  });

  it("writes none of them in the cassette, its base64 bodies, or what it prints", () => {
    const leaked = p.all.filter(({ value }) => forms(value).some((f) => written.includes(f)));
    expect(leaked.map((l) => l.where)).toEqual([]);
    const printed = notices.join("\n");
    expect(p.all.filter(({ value }) => forms(value).some((f) => printed.includes(f)))).toEqual([]);
  });
});
