import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { type Reply, send, tempDir } from "./support/http.js";
import { BINARY, PAGE_TOKENS, startUpstream } from "./support/upstream.js";

const FORM = "/v5/organizations/asso/forms/Event/gala/items";

/** Every request of the session, sent once through the recorder and once to the replay. */
const SESSION: { path: string; method?: string; headers?: Record<string, string>; body?: string }[] = [
  { path: FORM },
  ...PAGE_TOKENS.map((token) => ({ path: `${FORM}?continuationToken=${encodeURIComponent(token)}` })),
  { path: "/gzip", headers: { "accept-encoding": "gzip" } },
  { path: "/chunked" },
  { path: "/binary" },
  { path: "/big-page" },
  {
    path: "/echo?b=2&a=1",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"x":1,"y":[true,null]}',
  },
  { path: "/echo", method: "PUT", headers: { "content-type": "text/plain" }, body: "line one\r\nline two\n" },
  { path: "/missing" },
  { path: "/head", method: "HEAD" },
];

const HEADERS_THAT_MATTER = ["content-type", "content-encoding", "set-cookie", "x-custom"];

describe("record → cassette → replay", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const live: Reply[] = [];
  const replayed: Reply[] = [];
  let cassette: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
    cassette = temp.file("session.yaml");
    const recorder = await startRecorder({ upstream: upstream.url, cassette });
    for (const step of SESSION) live.push(await send(`${recorder.url}${step.path}`, step));
    expect((await recorder.close()).recorded).toBe(SESSION.length);
    const replay = await startReplay({ cassettes: cassette });
    for (const step of SESSION) replayed.push(await send(`${replay.url}${step.path}`, step));
    await replay.close();
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("passes the upstream's answers through unchanged while recording", () => {
    expect(live[0]?.json()).toMatchObject({ pagination: { continuationToken: PAGE_TOKENS[0] } });
    expect(
      live.find((r) => r.headers["content-type"] === "application/octet-stream")?.body.equals(BINARY),
    ).toBe(true);
  });

  it("replays every status and body byte for byte, and the headers that matter", () => {
    SESSION.forEach((step, i) => {
      const a = live[i] as Reply;
      const b = replayed[i] as Reply;
      expect(b.status, step.path).toBe(a.status);
      const decoded = (r: Reply) => (r.headers["content-encoding"] === "gzip" ? gunzipSync(r.body) : r.body);
      expect(decoded(b).equals(decoded(a)), step.path).toBe(true);
      for (const name of HEADERS_THAT_MATTER)
        expect(b.headers[name], `${step.path} ${name}`).toEqual(a.headers[name]);
    });
  });

  it("stores JSON as YAML maps, text as text, compressed bodies decoded and binary as base64", async () => {
    const text = await readFile(cassette, "utf8");
    expect(text).toMatch(/^---\nformat: assopay-cassette\/1\n/);
    expect(text).toContain("continuationToken: page2+/=tok");
    expect(text).toContain("zipped: true");
    expect(text).toContain("encoding: gzip");
    expect(text).toContain("base64: JVBERi0xLjcK");
    const loaded = await loadCassette(cassette);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.interactions.map((i) => i.id)).toEqual(SESSION.map((_, i) => i + 1));
    const chunked = loaded.interactions.find((i) => i.request.path === "/chunked");
    expect(chunked?.response.body).toEqual({
      text: "chunk 0 é\r\nchunk 1 é\r\nchunk 2 é\r\nchunk 3 é\r\nchunk 4 é\r\nlast line without newline",
    });
    expect(loaded.interactions[0]?.response.body).toMatchObject({ json: { data: [{ id: 0 }, { id: 1 }] } });
  });

  it("writes a large single-line JSON body that needs no redaction as its raw bytes, in a literal block", async () => {
    const text = await readFile(cassette, "utf8");
    const i = SESSION.findIndex((s) => s.path === "/big-page");
    const raw = live[i]?.body.toString("utf8") ?? "";
    expect(raw.length).toBeGreaterThan(512 * 1024);
    expect(text).toContain(`    text: |-\n      ${raw}\n`);
    const loaded = await loadCassette(cassette);
    expect(loaded.interactions[i]?.response.body).toEqual({ text: raw });
  });

  it("stores the gzip body decoded and serves it compressed again", () => {
    const i = SESSION.findIndex((s) => s.path === "/gzip");
    expect(replayed[i]?.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(replayed[i]?.body as Buffer).toString())).toMatchObject({ zipped: true });
  });
});
