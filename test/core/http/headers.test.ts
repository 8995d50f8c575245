import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endToEndHeaders, HOP_BY_HOP } from "../../../core/http/headers.js";
import type { RunningServer } from "../../../core/http/server.js";
import { parseResponse, rawExchange, serve } from "./support.js";

describe("endToEndHeaders", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve((req, res) => {
      req.resume();
      req.on("end", () => {
        const text = JSON.stringify(endToEndHeaders(req.headers));
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      });
    });
  });
  afterAll(() => server.close());

  const echoed = async (lines: string[], body = "") =>
    JSON.parse(
      parseResponse(await rawExchange(server.url, `POST /h HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`))
        .body,
    ) as Record<string, string | string[]>;

  it("strips every hop-by-hop field of RFC 9110 §7.6.1, host and content-length", async () => {
    const seen = await echoed([
      "Host: example.test",
      "Connection: close",
      "Keep-Alive: timeout=5",
      "Proxy-Connection: keep-alive",
      "Proxy-Authenticate: Basic",
      "Proxy-Authorization: Basic cHJveHk6c2VjcmV0",
      "TE: trailers",
      "Trailer: x-checksum",
      "Upgrade: h2c",
      "Transfer-Encoding: chunked",
      "Accept: application/json",
      "",
      "3\r\nabc\r\n0\r\n",
    ]);
    expect(seen).toEqual({ accept: "application/json" });
    const withLength = await echoed(
      ["Host: example.test", "Connection: close", "Content-Length: 2", "X-Kept: 1"],
      "ok",
    );
    expect(withLength).toEqual({ "x-kept": "1" });
    expect([...HOP_BY_HOP].sort()).toEqual(
      [
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
      ].sort(),
    );
  });

  it("strips the fields named in Connection, on one line or several", async () => {
    const seen = await echoed([
      "Host: example.test",
      "Connection: close, X-Hop-One",
      "Connection: x-hop-two",
      "X-Hop-One: 1",
      "X-Hop-Two: 2",
      "X-End-To-End: 3",
      "Content-Length: 0",
    ]);
    expect(seen).toEqual({ "x-end-to-end": "3" });
  });

  it("keeps every end-to-end field, repeated ones as lists, names as given", async () => {
    const seen = await echoed([
      "Host: example.test",
      "Connection: close",
      "Authorization: Bearer abc",
      "Cookie: a=1",
      "X-Trace: 1",
      "Content-Type: application/json",
      "Content-Encoding: gzip",
      "Content-Length: 0",
    ]);
    expect(seen).toEqual({
      authorization: "Bearer abc",
      cookie: "a=1",
      "x-trace": "1",
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    const assembled = endToEndHeaders({
      "Set-Cookie": ["a=1", "b=2"],
      Connection: "X-Hop",
      "X-HOP": "gone",
      "Keep-Alive": "timeout=5",
      Accept: "*/*",
      Absent: undefined,
    });
    expect(assembled).toEqual({ "Set-Cookie": ["a=1", "b=2"], Accept: "*/*" });
  });
});
