import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder } from "../../proxy/record/server.js";
import { startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "./support/cassettes.js";
import { type Reply, type Send, send, tempDir } from "./support/http.js";
import { Planted } from "./support/planted.js";
import { startUpstream } from "./support/upstream.js";

/** A cassette of two recorded requests; the requests below differ from them in a query value and a body field. */
const RECORDED = [
  {
    path: "/v5/organizations/asso/forms",
    query: { pageSize: "20" },
    body: { json: { data: [], pagination: { pageSize: 20 } } },
  },
  {
    method: "POST",
    path: "/echo",
    requestHeaders: { "content-type": "application/json" },
    requestBody: { json: { amount: 1000, note: "recorded" } },
    status: 201,
    body: { json: { ok: true } },
  },
];

const MISSES: { path: string; options: Send }[] = [
  { path: "/v5/organizations/asso/forms?pageSize=50", options: {} },
  {
    path: "/echo",
    options: {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"amount":1000,"note":"received"}',
    },
  },
  { path: "/nowhere", options: { method: "DELETE" } },
];

/** What a client sees of an answer: status, content type and body, byte for byte. */
function seen(reply: Reply) {
  return { status: reply.status, type: reply.headers["content-type"], body: reply.text };
}

describe("a miss is answered one way, by replay and by the recorder serving a cassette", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let file: string;

  beforeAll(async () => {
    temp = await tempDir();
    upstream = await startUpstream();
    file = temp.file("miss.yaml");
    await writeCassette(file, RECORDED);
  });

  afterAll(async () => {
    await upstream.close();
    await temp.remove();
  });

  it("record --mode once answers each miss with replay's status, problem document and explanation", async () => {
    const replay = await startReplay({ cassettes: file });
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file, mode: "once" });
    try {
      expect(recorder.state).toBe("replaying");
      for (const { path, options } of MISSES) {
        const fromReplay = await send(`${replay.url}${path}`, options);
        const fromRecorder = await send(`${recorder.url}${path}`, options);
        expect(seen(fromRecorder), path).toEqual(seen(fromReplay));
        expect(fromReplay.status).toBe(501);
        expect(fromReplay.headers["content-type"]).toBe("application/problem+json");
        const problem = fromRecorder.json<{ type: string; closest: { differences: unknown[] }[] }>();
        expect(problem.type).toBe("urn:assopay:problem:no-match");
        expect(problem.closest[0]?.differences.length).toBeGreaterThan(0);
      }
      expect(upstream.hits.size).toBe(0);
    } finally {
      await recorder.close();
      await replay.close();
    }
  });

  it("record --mode once and --mode new serve a recorded request as replay does", async () => {
    const replay = await startReplay({ cassettes: file });
    const once = await startRecorder({ upstream: upstream.url, cassette: file, mode: "once" });
    const path = "/v5/organizations/asso/forms?pageSize=20";
    try {
      const expected = await send(`${replay.url}${path}`);
      expect(expected.status).toBe(200);
      const fromOnce = await send(`${once.url}${path}`);
      expect(seen(fromOnce)).toEqual(seen(expected));
      expect(fromOnce.headers["x-assopay-replayed-from"]).toBe(expected.headers["x-assopay-replayed-from"]);
    } finally {
      await once.close();
    }
    const fresh = temp.file("miss-new.yaml");
    await writeCassette(fresh, RECORDED);
    const replayFresh = await startReplay({ cassettes: fresh });
    const added = await startRecorder({ upstream: upstream.url, cassette: fresh, mode: "new" });
    try {
      const expected = await send(`${replayFresh.url}${path}`);
      const fromNew = await send(`${added.url}${path}`);
      expect(seen(fromNew)).toEqual(seen(expected));
      expect(fromNew.headers["x-assopay-replayed-from"]).toBe(expected.headers["x-assopay-replayed-from"]);
      // In mode new a miss is no answer of the cassette's: it goes to the upstream and is recorded.
      expect(upstream.hits.size).toBe(0);
      const forwarded = await send(`${added.url}/counter`);
      expect(forwarded.status).toBe(200);
      expect(forwarded.headers["x-assopay-replayed-from"]).toBeUndefined();
      expect(upstream.hits.get("GET /counter")).toBe(1);
    } finally {
      expect((await added.close()).recorded).toBe(1);
      await replayFresh.close();
      await replay.close();
    }
  });

  it("a miss's answer and the replay's log hold none of the request's secrets (issue 24)", async () => {
    const p = new Planted();
    const messages: string[] = [];
    const replay = await startReplay({ cassettes: file, onEvent: (e) => messages.push(e.message) });
    try {
      const query = `code=${p.text("code")}&state=${p.text("state")}&sig=${p.text("sig")}&pageSize=50`;
      const reply = await send(`${replay.url}/v5/organizations/asso/forms?${query}`, {
        headers: { "x-session-id": p.text("X-Session-Id") },
      });
      const body = JSON.stringify({
        amount: 1000,
        sessionId: p.text("sessionId"),
        note: `use ${p.shaped("ghp_ in text", "ghp_", 36)}`,
        payload: JSON.stringify({ otp: p.text("otp in JSON in a string") }),
      });
      const posted = await send(`${replay.url}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const segment = await send(`${replay.url}/files/${p.shaped("path segment", "sk_live_", 30)}`);
      expect([reply.status, posted.status, segment.status]).toEqual([501, 501, 501]);
      const written = [reply.text, posted.text, segment.text, ...messages].join("\n");
      expect(written).toContain("pageSize");
      const leaked = p.all.filter(
        ({ value }) => written.includes(value) || written.includes(encodeURIComponent(value)),
      );
      expect(leaked.map((l) => l.where)).toEqual([]);
    } finally {
      await replay.close();
    }
  });
});
