import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { collectGarbage } from "../../core/collect.js";
import { parseIsoDay } from "../../core/dates.js";
import type { Cassette } from "../../proxy/cassette/format.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { Replayer } from "../../proxy/replay/replayer.js";
import { settledHeap } from "../specs/support/heap.js";
import { type Exchange, writeCassette } from "./support/cassettes.js";
import { cassetteFixture } from "./support/lifecycle.js";

// Replay copies what it keeps of each interaction into bytes outside the heap: the loaded cassette (its
// parsed bodies, and the file's text its strings are slices of) can then be collected, so a replay of
// 10,000 pages does not serve from a heap of a hundred megabytes.
const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
const PAGES = 2000;

function page(n: number) {
  const data = Array.from({ length: 20 }, (_, i) => ({
    id: n * 100 + i,
    amount: { total: 4599, vat: 0 },
    payer: { email: `payer${i}@example.org`, firstName: "Jérôme", lastName: "Lefèvre" },
    items: [{ id: n * 100 + i, type: "Registration", state: "Processed" }],
  }));
  return { data, pagination: { pageSize: 20, totalCount: PAGES * 20, totalPages: PAGES } };
}

function crawl(): Exchange[] {
  return Array.from({ length: PAGES }, (_, n) => ({
    path: ITEMS,
    query: { pageSize: "20", continuationToken: `a-long-continuation-token-${n}` },
    body: { json: page(n) },
  }));
}

interface ReplayHeap {
  /** The heap in use as the server left it once started. */
  left: number;
  /** The same once all garbage is collected: what the server keeps. */
  kept: number;
  interactions: number;
}

/** The heap a replay server of this cassette keeps while it serves, measured in a process of its own. */
async function replayHeap(cassette: string): Promise<ReplayHeap> {
  const script = fileURLToPath(new URL("./support/replay-heap.ts", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, cassette]);
  return JSON.parse(stdout) as ReplayHeap;
}

/**
 * The heap once collected, in a later job: V8 keeps what the current job just handled (a WeakRef's target,
 * the value an await returned) until the job ends.
 */
async function heapLater(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return settledHeap();
}

/** A weak reference to the parsed body of the cassette's first response. */
function firstBody(cassette: Cassette): WeakRef<object> {
  const body = cassette.interactions[0]?.response.body;
  return new WeakRef((body && "json" in body ? body.json : {}) as object);
}

const options = { at: undefined, view: undefined, secretSalt: undefined };

describe("what replay keeps of a loaded cassette", () => {
  const fixture = cassetteFixture(crawl);

  it("lets the loaded documents go once they are indexed", async () => {
    let cassette: Cassette | undefined = await loadCassette(fixture.file);
    const parsed = firstBody(cassette);
    const replayer = new Replayer([cassette], options);
    cassette = undefined;
    await heapLater();
    expect(parsed.deref()).toBeUndefined();
    expect(replayer.index.size).toBe(PAGES);
  });

  it("serves from a heap that grows by less than the cassette's own text, garbage collected at start", async () => {
    const { size } = await stat(fixture.file);
    const small = fixture.temp.file("one.yaml");
    await writeCassette(small, crawl().slice(0, 1));
    const [one, all] = [await replayHeap(small), await replayHeap(fixture.file)];
    expect([one.interactions, all.interactions]).toEqual([1, PAGES]);
    // Keeping the parsed pages costs about three times the file's size; keeping one slice of the file's
    // text (a string read from a file is a slice of its whole text) keeps all of it. Replay keeps no
    // object per interaction (keys in typed arrays, requests, headers and bodies as bytes outside the
    // heap): the heap it keeps for 2,000 pages is that of one, give or take what one collection leaves
    // (measured: 2.7 to 3.0% or 5.2 to 5.8% of the file's size, from run to run; an object per
    // interaction, holding only its key, request and response headers, took 16%).
    expect(all.kept - one.kept).toBeLessThan(size * 0.1);
    // Loading leaves several times the file's size of garbage in the old generation, which serving
    // requests would not make V8 reclaim: the server collects it once, before it listens.
    expect(all.left - one.left).toBeLessThan(size * 0.75);
  });

  it("still rewrites the counts of a held page once withCount defaults to false", async () => {
    const replayer = new Replayer([await loadCassette(fixture.file)], {
      ...options,
      at: parseIsoDay("2025-04-01"),
      view: loadContract(),
    });
    const answer = replayer.answer({
      method: "GET",
      path: ITEMS,
      query: { pageSize: "20", continuationToken: "a-long-continuation-token-7" },
      headers: {},
    });
    expect(answer.kind).toBe("hit");
    const served = JSON.parse(answer.response.bytes.toString("utf8"));
    expect(served.data[0].id).toBe(700);
    expect(served.pagination).toEqual({ pageSize: 20, totalCount: -1, totalPages: -1 });
  });

  it("collects without leaving gc exposed to the contexts made after it", () => {
    collectGarbage();
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
