import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { constants, createBrotliCompress, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DECODED_BYTES } from "../../core/http/coding.js";
import { loadCassette } from "../../proxy/index.js";
import { Journal } from "../../proxy/record/journal.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { send, tempDir } from "../proxy/support/http.js";
import { emptyCassette, itemMeta } from "../proxy/support/journals.js";

const MIB = 1024 * 1024;
/** What the bomb decodes to: 1 GiB of zeros (the attack was 10 GB; any size past the bound is the same case). */
const BOMB_DECODED = 1024 * MIB;

/** 1 GiB of zeros in brotli (about 200 KB), made in chunks so that the test never holds the gigabyte. */
function brotliBomb(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const encoder = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    const out: Buffer[] = [];
    encoder.on("data", (chunk: Buffer) => out.push(chunk));
    encoder.on("end", () => resolve(Buffer.concat(out)));
    encoder.on("error", reject);
    const zeros = Buffer.alloc(16 * MIB);
    for (let i = 0; i < BOMB_DECODED / zeros.length; i++) encoder.write(zeros);
    encoder.end();
  });
}

/** The peak growth of the resident set while `work` runs. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ value: T; grew: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, grew: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

describe("bodies that decode to more than the bound", () => {
  let bomb: Buffer;
  let upstream: Server;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const small = Buffer.from(JSON.stringify({ data: [{ id: 1 }] }));

  beforeAll(async () => {
    bomb = await brotliBomb();
    temp = await tempDir();
    upstream = createServer((req, res) => {
      if (req.url === "/small") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(small));
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" });
      res.end(bomb);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
    await temp.remove();
  });

  it("a real brotli bomb, three at once behind a real recorder: memory stays bounded, the body is kept as received with a note", async () => {
    expect(bomb.length).toBeLessThan(MIB);
    const cassette = temp.file("bomb.yaml");
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      cassette,
    });
    const { value: replies, grew } = await rssGrowth(async () => {
      const replies = await Promise.all([1, 2, 3].map((n) => send(`${recorder.url}/bomb?n=${n}`)));
      expect((await recorder.close()).recorded).toBe(3);
      return replies;
    });
    // The client got the bytes the upstream sent.
    for (const reply of replies) expect(reply.body.equals(bomb)).toBe(true);
    // Three bodies decoded whole would be 3 GiB; the bound lets each grow to 50 MiB at most.
    expect(grew).toBeLessThan(3 * MAX_DECODED_BYTES + 256 * MIB);
    console.log(`three 1 GiB brotli bombs recorded, resident set grew ${(grew / MIB).toFixed(0)} MB`);

    const loaded = await loadCassette(cassette);
    expect(loaded.interactions).toHaveLength(3);
    for (const interaction of loaded.interactions) {
      const body = interaction.response.body as { base64: string; note?: string; encoding?: string };
      expect(Buffer.from(body.base64, "base64").equals(bomb)).toBe(true);
      expect(body.encoding).toBeUndefined();
      expect(body.note).toBe(
        `kept as received: the br body decodes to more than ${MAX_DECODED_BYTES} bytes, the bound on a decoded body`,
      );
    }
    expect(await readFile(cassette, "utf8")).toContain("note: ");
    // Replay sends the bytes as received, with their content-encoding: the client decodes them, not replay.
    const replay = await startReplay({ cassettes: cassette });
    const replayed = await send(`${replay.url}/bomb?n=2`);
    await replay.close();
    expect(replayed.headers["content-encoding"]).toBe("br");
    expect(replayed.body.equals(bomb)).toBe(true);
  });

  it("a journal holding the bomb is recovered by a reader in bounded memory", async () => {
    const cassette = temp.file("journal-bomb.yaml");
    await emptyCassette(cassette);
    const journal = Journal.open(cassette);
    for (const id of [1, 2, 3]) {
      const meta = {
        ...itemMeta(id),
        responseHeaders: { "content-type": "application/json", "content-encoding": "br" },
      };
      journal.append(JSON.stringify(meta), Buffer.alloc(0), [bomb]);
    }
    journal.close(false);
    const { value: loaded, grew } = await rssGrowth(() =>
      loadCassette(cassette, { onNotice: () => undefined }),
    );
    expect(loaded.interactions).toHaveLength(3);
    const body = loaded.interactions[0]?.response.body as { note?: string } | undefined;
    expect(body?.note).toContain("kept as received");
    expect(grew).toBeLessThan(3 * MAX_DECODED_BYTES + 256 * MIB);
  });

  it("a body within the bound is decoded and stored as before, its coding named", async () => {
    const cassette = temp.file("small.yaml");
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      cassette,
    });
    await send(`${recorder.url}/small`);
    await recorder.close();
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions[0]?.response.body).toEqual({ json: { data: [{ id: 1 }] }, encoding: "gzip" });
  });
});
