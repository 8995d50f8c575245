import { type AddressInfo, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { type RunningRecorder, startRecorder } from "../../proxy/record/server.js";
import { send, tempDir } from "../proxy/support/http.js";

/**
 * An upstream that answers `GET /status/NNN` with the raw status line `HTTP/1.1 NNN`, whatever NNN is, and
 * `GET /upgrade` with a 101.
 */
async function rawStatusUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", (chunk: Buffer) => {
      const path = chunk.toString("latin1").split(" ")[1] ?? "/";
      if (path === "/upgrade") {
        socket.write("HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n");
        return;
      }
      const status = path.replace("/status/", "");
      const body = status === "204" ? "" : "ok";
      socket.end(
        `HTTP/1.1 ${status} Whatever\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("invalid statuses from the upstream (docs/bad-inputs.md)", () => {
  let upstream: Awaited<ReturnType<typeof rawStatusUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let recorder: RunningRecorder;

  beforeAll(async () => {
    upstream = await rawStatusUpstream();
    temp = await tempDir();
    recorder = await startRecorder({
      upstream: upstream.url,
      cassette: temp.file("statuses.yaml"),
      upstreamTimeoutMs: 2000,
      onEvent: () => undefined,
    });
  });

  afterAll(async () => {
    await recorder.close();
    await upstream.close();
    await temp.remove();
  });

  async function expectBadGateway(path: string, mentions: string): Promise<void> {
    const reply = await send(`${recorder.url}${path}`);
    expect(reply.status).toBe(502);
    expect(reply.headers["content-type"]).toBe("application/problem+json");
    expect(reply.json()).toMatchObject({ type: "urn:assopay:problem:upstream-bad-response", status: 502 });
    expect(reply.json<{ detail: string }>().detail).toContain(mentions);
  }

  it("answers 502 to status 000 and keeps serving", async () => {
    await expectBadGateway("/status/000", "status 0,");
    expect((await send(`${recorder.url}/status/200`)).status).toBe(200);
  });

  it("answers 502 to status 099 and keeps serving", async () => {
    await expectBadGateway("/status/099", "status 99,");
    expect((await send(`${recorder.url}/status/200`)).status).toBe(200);
  });

  it("answers 502 to statuses 600 and 999 instead of recording them", async () => {
    await expectBadGateway("/status/600", "status 600,");
    await expectBadGateway("/status/999", "status 999,");
  });

  it("answers 502 to a 1xx other than 100 sent as the final answer (103 with a body, then close)", async () => {
    const reply = await send(`${recorder.url}/status/103`);
    expect(reply.status).toBe(502);
    expect(reply.headers["content-type"]).toBe("application/problem+json");
    expect(reply.json<{ detail: string }>().detail).toMatch(/nothing was recorded$/);
    expect((await send(`${recorder.url}/status/200`)).status).toBe(200);
  });

  it("answers 502 to a 101 upgrade instead of leaving the client hanging", async () => {
    await expectBadGateway("/upgrade", "101 Switching Protocols");
    expect((await send(`${recorder.url}/status/201`)).status).toBe(201);
  });

  it("records every legal status, and the cassette loads with none of the refused ones", async () => {
    for (const status of [200, 204, 404, 599]) {
      expect((await send(`${recorder.url}/status/${status}`)).status).toBe(status);
    }
    await recorder.close();
    const cassette = await loadCassette(temp.file("statuses.yaml"));
    const statuses = cassette.interactions.map((i) => i.response.status);
    expect(statuses).toEqual(expect.arrayContaining([200, 201, 204, 404, 599]));
    expect(statuses.every((s) => s >= 200 && s <= 599)).toBe(true);
  });
});
