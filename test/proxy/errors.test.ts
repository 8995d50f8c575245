import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { type RunningRecorder, startRecorder } from "../../proxy/record/server.js";
import { REFUSING_URL } from "../support/refused.js";
import { send, tempDir } from "./support/http.js";
import { startGarbageUpstream, startUpstream } from "./support/upstream.js";

/** Sends a raw request line and returns what came back. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

/** Resolves to how a response ended: complete, or cut by the proxy. */
function outcome(url: string): Promise<{ status: number; complete: boolean }> {
  return new Promise((resolve) => {
    const call = httpRequest(url, { agent: false }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, complete: true }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, complete: false }));
      res.on("aborted", () => resolve({ status: res.statusCode ?? 0, complete: false }));
    });
    call.on("error", () => resolve({ status: 0, complete: false }));
    call.end();
  });
}

describe("errors while recording", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let recorder: RunningRecorder;
  const events: ProxyEvent[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    temp = await tempDir();
    recorder = await startRecorder({
      upstream: upstream.url,
      cassette: temp.file("errors.yaml"),
      maxBodyBytes: 5000,
      upstreamTimeoutMs: 300,
      onEvent: (event) => events.push(event),
    });
  });

  afterAll(async () => {
    await recorder.close();
    await upstream.close();
    await temp.remove();
  });

  it("answers 504 naming the upstream when it stays silent", async () => {
    const reply = await send(`${recorder.url}/slow`);
    expect(reply.status).toBe(504);
    expect(reply.headers["content-type"]).toBe("application/problem+json");
    expect(reply.json()).toEqual({
      type: "urn:assopay:problem:upstream-timeout",
      title: "Upstream timed out",
      status: 504,
      detail: `the upstream ${upstream.url} sent nothing for 300 ms; nothing was recorded`,
      upstream: `${upstream.url}/`,
    });
  });

  it("answers 502 when the upstream resets the connection before answering", async () => {
    const reply = await send(`${recorder.url}/reset-early`);
    expect(reply.status).toBe(502);
    expect(reply.json()).toMatchObject({
      type: "urn:assopay:problem:upstream-unreachable",
      detail: `the upstream ${upstream.url} reset the connection (ECONNRESET); nothing was recorded`,
    });
  });

  it("cuts the client's connection when the upstream resets in the middle of a streamed body", async () => {
    expect(await outcome(`${recorder.url}/reset`)).toEqual({ status: 200, complete: false });
    expect(events.map((e) => e.message)).toContain(
      `GET /reset → 502: the upstream ${upstream.url} closed the connection in the middle of the response body; nothing was recorded`,
    );
  });

  it("cuts a streamed body that stalls past the timeout", async () => {
    expect(await outcome(`${recorder.url}/slow-body`)).toEqual({ status: 200, complete: false });
  });

  it("refuses a response declared over the limit with a 502, and cuts one that grows over it", async () => {
    const big = await send(`${recorder.url}/big`);
    expect(big.status).toBe(502);
    expect(big.json()).toMatchObject({
      type: "urn:assopay:problem:body-too-large",
      title: "Upstream response too large",
      detail:
        "the response body is 10000 bytes, over the limit of 5000; raise the limit with --max-body (maxBodyBytes) if this is expected",
    });
    expect((await outcome(`${recorder.url}/big-chunked`)).complete).toBe(false);
  });

  it("refuses a request body over the limit with a 413, declared or chunked", async () => {
    const declared = await send(`${recorder.url}/echo`, { method: "POST", body: Buffer.alloc(6000, 65) });
    expect(declared.status).toBe(413);
    expect(declared.json()).toMatchObject({
      title: "Request body too large",
      detail:
        "the request body is 6000 bytes, over the limit of 5000; raise the limit with --max-body (maxBodyBytes) if this is expected",
    });
    const chunked = await new Promise<number>((resolve) => {
      const call = httpRequest(`${recorder.url}/echo`, { method: "POST", agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      call.on("error", () => resolve(-1));
      for (let i = 0; i < 6; i++) call.write(Buffer.alloc(1000, 66));
      call.end();
    });
    expect([413, -1]).toContain(chunked);
  });

  it("refuses absolute-form targets and CONNECT: it is not an open proxy", async () => {
    const absolute = await raw(
      recorder.url,
      "GET http://example.com/steal HTTP/1.1\r\nhost: example.com\r\n\r\n",
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
    expect(absolute).toContain(
      'request target \\"http://example.com/steal\\" refused: only paths (/v5/…) are accepted, never absolute URLs',
    );
    const tunnel = await raw(
      recorder.url,
      "CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n",
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
    expect(tunnel).toContain("CONNECT example.com:443 refused: no tunnels");
  });

  it("does not time out pooled upstream connections that sit idle between requests", async () => {
    expect((await send(`${recorder.url}/counter`)).status).toBe(200);
    const before = events.filter((e) => e.kind === "upstream-error").length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await send(`${recorder.url}/counter`)).status).toBe(200);
    expect(events.filter((e) => e.kind === "upstream-error").length).toBe(before);
  });

  it("keeps serving, and records only the exchanges that completed", async () => {
    const ok = await send(`${recorder.url}/echo`, { method: "POST", body: "fine" });
    expect(ok.status).toBe(201);
    await recorder.close();
    const cassette = await loadCassette(temp.file("errors.yaml"));
    expect(cassette.interactions.map((i) => i.request.path)).toEqual(["/counter", "/counter", "/echo"]);
  });
});

describe("errors of unreachable upstreams", () => {
  it("answers 502 when the upstream refuses connections, or answers garbage", async () => {
    const temp = await tempDir();
    const refused = REFUSING_URL;
    const garbage = await startGarbageUpstream();
    try {
      const a = await startRecorder({ upstream: refused, cassette: temp.file("a.yaml") });
      const first = await send(`${a.url}/v5/partners/me`);
      expect(first.status).toBe(502);
      expect(first.json()).toMatchObject({
        detail: `the upstream ${refused} refused the connection (ECONNREFUSED); nothing was recorded`,
      });
      expect((await a.close()).recorded).toBe(0);
      const b = await startRecorder({ upstream: garbage.url, cassette: temp.file("b.yaml") });
      const second = await send(`${b.url}/v5/partners/me`);
      expect(second.status).toBe(502);
      expect(second.json<{ detail: string }>().detail).toMatch(
        new RegExp(
          `^the upstream ${garbage.url} answered with something that is not HTTP \\(HPE_[A-Z_]+: .+\\); nothing was recorded$`,
        ),
      );
      expect((await b.close()).recorded).toBe(0);
    } finally {
      await garbage.close();
      await temp.remove();
    }
  });
});
