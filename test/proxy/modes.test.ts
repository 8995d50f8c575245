import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { versionsOf } from "../../proxy/record/plan.js";
import { startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "./support/http.js";
import { startUpstream } from "./support/upstream.js";

describe("record modes", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  const hits = (path: string) => upstream.hits.get(`GET ${path}`) ?? 0;

  beforeAll(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
    file = temp.file("modes.yaml");
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("once: records a cassette that does not exist yet", async () => {
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file });
    expect(recorder.state).toBe("recording");
    expect((await send(`${recorder.url}/counter`)).json()).toEqual({ hit: 1 });
    expect((await recorder.close()).recorded).toBe(1);
  });

  it("once: serves an existing cassette without calling the upstream, refuses the rest and writes nothing", async () => {
    const before = await readFile(file);
    const events: ProxyEvent[] = [];
    const recorder = await startRecorder({
      upstream: upstream.url,
      cassette: file,
      onEvent: (event) => events.push(event),
    });
    expect(recorder.state).toBe("replaying");
    expect((await send(`${recorder.url}/counter`)).json()).toEqual({ hit: 1 });
    const miss = await send(`${recorder.url}/chunked`);
    expect(miss.status).toBe(501);
    expect(miss.json<{ detail: string }>().detail).toBe(
      "no recorded request matches GET /chunked; the closest differs in path",
    );
    expect(events.filter((e) => e.kind === "miss").map((e) => e.message)).toEqual([
      "no recorded request matches GET /chunked; the closest differs in path (mode once: the cassette exists, so nothing new is recorded; use --mode new to add unseen requests)",
    ]);
    await recorder.close();
    expect(hits("/counter")).toBe(1);
    expect(hits("/chunked")).toBe(0);
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it("new: serves what the cassette holds, forwards and appends the rest, without touching what was written", async () => {
    const before = await readFile(file);
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file, mode: "new" });
    expect((await send(`${recorder.url}/counter`)).json()).toEqual({ hit: 1 });
    expect((await send(`${recorder.url}/counter`)).json()).toEqual({ hit: 2 });
    expect((await send(`${recorder.url}/echo`, { method: "POST", body: "posted" })).status).toBe(201);
    expect((await recorder.close()).recorded).toBe(2);
    const after = await readFile(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const cassette = await loadCassette(file);
    expect(cassette.interactions.map((i) => [i.id, i.request.method, i.request.path])).toEqual([
      [1, "GET", "/counter"],
      [2, "GET", "/counter"],
      [3, "POST", "/echo"],
    ]);
  });

  it("new: refuses to mix redaction settings in one cassette", async () => {
    await expect(
      startRecorder({ upstream: upstream.url, cassette: file, mode: "new", redactPii: true }),
    ).rejects.toMatchObject({
      code: "usage",
      message: "the cassette was recorded without --redact-pii; append to it the same way",
    });
  });

  it("all: records everything again and keeps the old file as a version", async () => {
    const before = await readFile(file);
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file, mode: "all" });
    expect((await send(`${recorder.url}/counter`)).json()).toEqual({ hit: 3 });
    await recorder.close();
    const [version] = await versionsOf(file);
    expect((await readFile(version as string)).equals(before)).toBe(true);
    const cassette = await loadCassette(file);
    expect(cassette.interactions.map((i) => i.response.body)).toEqual([{ json: { hit: 3 } }]);
  });
});
