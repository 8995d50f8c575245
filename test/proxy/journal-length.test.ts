import { existsSync, statSync } from "node:fs";
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/index.js";
import { LAG_HIGH } from "../../proxy/record/worker-host.js";
import { blobUpstream } from "./support/blob-upstream.js";
import { upstreamAndTemp } from "./support/lifecycle.js";

const BODY = 256 * 1024;
const CLIENTS = 8;
const REQUESTS = 160; // 40 MiB of bodies: the journal's mark is passed twice

/** GETs `url` on a keep-alive agent; resolves whether the whole declared body arrived. */
function whole(url: string, agent: Agent): Promise<boolean> {
  return new Promise((resolve) => {
    request(url, { agent }, (res) => {
      let got = 0;
      res.on("data", (chunk: Buffer) => {
        got += chunk.length;
      });
      res.on("end", () => resolve(got === Number(res.headers["content-length"])));
      res.on("error", () => resolve(false));
    })
      .on("error", () => resolve(false))
      .end();
  });
}

/** A file's size, 0 when it is not there. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

describe("the journal's length under traffic that never pauses (JournalQueue, proxy/record/worker-host.ts)", () => {
  const files = upstreamAndTemp(blobUpstream);

  it("is sealed each time it reaches 16 MiB while the worker lags: each journal holds at most the mark and what was in flight when it was reached, every exchange is answered and recorded, and none is left after a clean stop", async () => {
    const cassette = files.temp.file("steady.yaml");
    const recorder = await startRecorder({ upstream: files.upstream.url, cassette });
    const sizes: number[] = [];
    const sealed: number[] = [];
    const sample = setInterval(() => {
      sizes.push(sizeOf(`${cassette}.journal`));
      sealed.push(sizeOf(`${cassette}.journal.sealed`));
    }, 2);
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    let next = 0;
    const client = async (): Promise<boolean[]> => {
      const answers: boolean[] = [];
      // Each client sends its next request as soon as the last one is answered: no pause, ever.
      for (let i = next++; i < REQUESTS; i = next++) {
        answers.push(await whole(`${recorder.url}/blob?id=${i}&size=${BODY}`, agent));
      }
      return answers;
    };
    let answers: boolean[];
    try {
      answers = (await Promise.all(Array.from({ length: CLIENTS }, client))).flat();
    } finally {
      clearInterval(sample);
      agent.destroy();
      await recorder.close();
    }
    expect(answers).toHaveLength(REQUESTS);
    expect(answers.every(Boolean)).toBe(true);
    const ids = (await loadCassette(cassette)).interactions.map((i) => Number(i.request.query?.id));
    expect(new Set(ids).size).toBe(REQUESTS);

    // What was admitted before the mark was reached still ends: at most one exchange per client. A
    // journal held past its mark (the last sealed one not converted yet) is sealed at that length.
    const frame = BODY + 4096;
    const mark = LAG_HIGH.journalBytes;
    const most = mark + CLIENTS * frame;
    expect(Math.max(...sizes)).toBeLessThanOrEqual(most);
    expect(Math.max(...sealed)).toBeLessThanOrEqual(most);
    // The open journal started again empty under load, more than once, after reaching the mark; and
    // some of those times it was sealed, the worker still converting it.
    let restarted = 0;
    for (let k = 1; k < sizes.length; k++) {
      const [before, after] = [sizes[k - 1] as number, sizes[k] as number];
      if (after < before && before >= mark - CLIENTS * frame) restarted++;
    }
    expect(restarted).toBeGreaterThanOrEqual(2);
    expect(sealed.some((size) => size >= mark)).toBe(true);
    expect(existsSync(`${cassette}.journal`) || existsSync(`${cassette}.journal.sealed`)).toBe(false);
  });
});
