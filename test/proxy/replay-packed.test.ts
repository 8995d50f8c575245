import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { LoadedInteraction } from "../../proxy/cassette/format.js";
import { canonicalize } from "../../proxy/replay/key.js";
import { ByteArena, hash32, KeyTable, ReplayIndex } from "../../proxy/replay/replay-index.js";
import { type Served, ServedCache } from "../../proxy/replay/start-over-map.js";
import { type Exchange, interactions } from "./support/cassettes.js";

// Replay's index keeps no object per interaction: keys in typed arrays, requests, headers and bodies as
// bytes in a few large buffers. These pin what it must still do exactly as the objects did.

/** A key as `key.ts` makes them: 32 bytes of SHA-256 in base64url. */
function key(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/** A key whose first four bytes (the hash table's probe) are those of `like`'s, the rest different. */
function probeTwin(like: string, text: string): string {
  const bytes = Buffer.from(key(text), "base64url");
  Buffer.from(like, "base64url").copy(bytes, 0, 0, 4);
  return bytes.toString("base64url");
}

function loaded(exchanges: readonly Exchange[]): LoadedInteraction[] {
  return interactions(exchanges).map((x) => ({ ...x, source: { file: "/tmp/c.yaml", line: x.id * 10 } }));
}

describe("the key table", () => {
  it("serves a key's interactions in recorded order, then the last again or none, and starts over", () => {
    const table = new KeyTable();
    const [a, b] = [key("a"), key("b")];
    expect([a, b, a, a].map((k) => table.add(k))).toEqual([0, 1, 2, 3]);
    expect([0, 1, 2, 3, 4].map(() => table.take(a, true))).toEqual([0, 2, 3, 3, 3]);
    expect(table.take(b, false)).toBe(1);
    expect(table.take(b, false)).toBeUndefined();
    table.add(b);
    expect(table.take(b, false)).toBe(4);
    table.reset();
    expect([table.take(a, false), table.take(b, false), table.take(b, false)]).toEqual([0, 1, 4]);
    expect(table.take(key("never"), true)).toBeUndefined();
  });

  it("tells apart keys that share the probe's bytes, and finds each of thousands after growing", () => {
    const table = new KeyTable();
    const first = key("first");
    const twin = probeTwin(first, "twin");
    table.add(first);
    expect(table.take(twin, true)).toBeUndefined();
    table.add(twin);
    expect([table.take(first, true), table.take(twin, true)]).toEqual([0, 1]);
    const many = Array.from({ length: 5000 }, (_, i) => key(`k${i}`));
    for (const k of many) table.add(k);
    expect(many.map((k) => table.take(k, false))).toEqual(many.map((_, i) => i + 2));
  });

  it("refuses a key that is not a canonical key, and finds nothing for one", () => {
    const table = new KeyTable();
    expect(() => table.add("short")).toThrow(/not a key/);
    expect(table.take("short", true)).toBeUndefined();
  });
});

describe("the byte arena", () => {
  it("gives back each record's bytes, small records sharing chunks that grow to 8 MB, a big one in its own", () => {
    const arena = new ByteArena();
    const put = (bytes: Buffer) => ({
      bytes,
      ...arena.append(bytes.length, (into, at) => bytes.copy(into, at)),
    });
    const small = Array.from({ length: 3000 }, (_, i) => put(Buffer.alloc(4000, i % 251)));
    const big = put(Buffer.alloc(3 * 1024 * 1024, 7));
    for (const r of [...small, big])
      expect(arena.view(r.chunk, r.start, r.bytes.length).equals(r.bytes)).toBe(true);
    // 3000 × 4,000 bytes in shared chunks of 64 KB, 128 KB, ... 8 MB, and the big record's own.
    const shared = [...new Set(small.map((r) => r.chunk))];
    expect(shared).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(big.start).toBe(0);
    expect(arena.bytes).toBe((64 + 128 + 256 + 512 + 1024 + 2048 + 4096 + 8192) * 1024 + big.bytes.length);
  });
});

describe("the packed replay index", () => {
  it("gives back each recorded response and request exactly, with only the headers matching reads", () => {
    const recorded = loaded([
      { path: "/json", body: { json: { é: [1, "ü"] }, encoding: "gzip" } },
      {
        method: "POST",
        path: "/file",
        requestHeaders: { "content-type": "text/plain", "x-request-id": "r1" },
        requestBody: { text: "héllo" },
        status: 201,
        headers: { "content-type": "application/pdf" },
        body: { base64: Buffer.from([0, 255, 1]).toString("base64") },
      },
      { path: "/empty", status: 204 },
    ]);
    const file1 = recorded[1];
    if (file1) file1.response.headers["set-cookie"] = ["a=1", "b=2"];
    const index = new ReplayIndex(recorded);
    expect(index.size).toBe(3);
    const json = index.response(0);
    expect([json.bytes.toString("utf8"), json.encoding, json.json]).toEqual(['{"é":[1,"ü"]}', "gzip", true]);
    const file = index.response(1);
    expect([file.status, [...file.bytes], file.encoding, file.json]).toEqual([
      201,
      [0, 255, 1],
      undefined,
      false,
    ]);
    expect(file.headers).toEqual({ "content-type": "application/pdf", "set-cookie": ["a=1", "b=2"] });
    expect(index.request(1)).toEqual({
      method: "POST",
      path: "/file",
      headers: { "content-type": "text/plain" },
      body: { text: "héllo" },
    });
    expect([index.response(2).status, index.response(2).bytes.length]).toEqual([204, 0]);
    expect([index.id(1), index.source(1)]).toEqual([2, { file: "/tmp/c.yaml", line: 20 }]);
  });

  it("compares a miss with recordings of its method and path only, not one whose hash merely collides", () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const path = `/p/${i}`;
      const other = seen.get(hash32(`GET ${path}`));
      if (other) pair = [other, path];
      else seen.set(hash32(`GET ${path}`), path);
    }
    const [colliding, asked] = pair;
    expect(hash32(`GET ${colliding}`)).toBe(hash32(`GET ${asked}`));
    const index = new ReplayIndex(loaded([{ path: colliding }, { path: asked, query: { page: "2" } }]));
    const received = canonicalize({ method: "GET", path: asked, query: { page: "3" }, headers: {} });
    expect(index.candidates(received).map((c) => c.request.path)).toEqual([asked]);
    const elsewhere = canonicalize({ method: "GET", path: "/nowhere", headers: {} });
    expect(index.candidates(elsewhere).map((c) => c.request.path)).toEqual([colliding, asked]);
  });
});

describe("the served cache", () => {
  const make = (entry: number): Served => ({
    response: {
      status: 200,
      headers: {},
      bytes: Buffer.from(String(entry)),
      encoding: undefined,
      json: false,
    },
    headers: { "x-assopay-replayed-from": `c.yaml:${entry}` },
  });

  it("gives the same object for an interaction served again, and starts over when full", () => {
    const cache = new ServedCache(2);
    const first = cache.getOrMake(1, make);
    expect(cache.getOrMake(1, make)).toBe(first);
    cache.getOrMake(2, make);
    expect(cache.size).toBe(2);
    cache.getOrMake(3, make);
    expect(cache.size).toBe(1);
    expect(cache.getOrMake(1, make)).not.toBe(first);
  });
});
