import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpClient,
  type OwnedHttpClient,
  TransportError,
  UnusableAnswer,
} from "../../specs/runner/http.js";
import { REFUSING_URL } from "../support/refused.js";

const JSON_TEXT = JSON.stringify({ data: [{ id: 1, name: "Gala — entrée" }], pagination: {} });
const BODY = Buffer.from(JSON_TEXT);

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A loopback server answering with `answer`, noting every request and connection it saw. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  let closedSockets = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(parts).toString("utf8"),
      });
      answer(req, res);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => closedSockets++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    connections: () => sockets.size,
    closedConnections: () => closedSockets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const opened: OwnedHttpClient[] = [];
function client(timeoutMs = 5_000): OwnedHttpClient {
  const made = createHttpClient({
    timeoutMs,
    signal: new AbortController().signal,
    userAgent: "transport-test",
  });
  opened.push(made);
  return made;
}

afterEach(() => {
  for (const made of opened.splice(0)) made.close();
});

describe("verify's HTTP client over node:http", () => {
  it.each([
    ["gzip", gzipSync(BODY)],
    ["x-gzip", gzipSync(BODY)],
    ["deflate", deflateSync(BODY)],
    ["deflate", deflateRawSync(BODY)],
    ["br", brotliCompressSync(BODY)],
    ["gzip, br", brotliCompressSync(gzipSync(BODY))],
    ["identity", BODY],
  ] as const)("undoes content-encoding %s, as fetch did", async (coding, bytes) => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": coding });
      res.end(bytes);
    });
    try {
      const answer = await client().send({ method: "GET", url: `${server.url}/v5/x` });
      expect(answer.text).toBe(JSON_TEXT);
      expect(answer.bytes.equals(BODY)).toBe(true);
      expect(server.seen[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
    } finally {
      await server.close();
    }
  });

  it("hands over a coding it does not know as the bytes came", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-encoding": "zstd" });
      res.end(BODY);
    });
    try {
      const answer = await client().send({ method: "GET", url: `${server.url}/v5/x` });
      expect(answer.text).toBe(JSON_TEXT);
    } finally {
      await server.close();
    }
  });

  it("calls a body that does not decode no answer, and says which coding failed", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end("not gzip at all");
    });
    try {
      const failed = await client()
        .send({ method: "GET", url: `${server.url}/v5/x` })
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(TransportError);
      expect((failed as Error).message).toMatch(
        /^no answer from http:.*\/v5\/x: the body does not decode as gzip/,
      );
    } finally {
      await server.close();
    }
  });

  it("sends the method, the URL as given, the headers and the body, and follows no redirect", async () => {
    const server = await serve((_, res) => {
      res.writeHead(303, { location: "/elsewhere" }).end();
    });
    try {
      const answer = await client().send({
        method: "POST",
        url: `${server.url}/v5/a%2Fb?x=1&y=%C3%A9`,
        authorization: "Bearer abcdefghijkl",
        headers: { "x-extra": "1" },
        body: { contentType: "application/json", text: '{"é":1}' },
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/elsewhere");
      expect(answer.request).toEqual({
        method: "POST",
        url: `${server.url}/v5/a%2Fb?x=1&y=%C3%A9`,
        headers: { "x-extra": "1", authorization: "Bearer abcdef…", "content-type": "application/json" },
      });
      expect(server.seen).toHaveLength(1);
      const [request] = server.seen;
      expect(request?.method).toBe("POST");
      expect(request?.url).toBe("/v5/a%2Fb?x=1&y=%C3%A9");
      expect(request?.body).toBe('{"é":1}');
      expect(request?.headers).toMatchObject({
        authorization: "Bearer abcdefghijkl",
        "content-type": "application/json",
        "content-length": "8",
        "user-agent": "transport-test",
        accept: "application/json",
        "x-extra": "1",
      });
    } finally {
      await server.close();
    }
  });

  it("keeps repeated response headers apart", async () => {
    const server = await serve((_, res) => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.end("{}");
    });
    try {
      const answer = await client().send({ method: "GET", url: `${server.url}/` });
      expect(answer.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    } finally {
      await server.close();
    }
  });

  it("keeps one connection alive across requests, and lets it go when closed", async () => {
    const server = await serve((_, res) => res.end("{}"));
    try {
      const made = client();
      for (let i = 0; i < 5; i++) await made.send({ method: "GET", url: `${server.url}/v5/${i}` });
      expect(server.connections()).toBe(1);
      expect(server.closedConnections()).toBe(0);
      made.close();
      await expect.poll(() => server.closedConnections()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("does not undo a coding on an empty body (204)", async () => {
    const server = await serve((_, res) => res.writeHead(204, { "content-encoding": "gzip" }).end());
    try {
      const answer = await client().send({ method: "GET", url: `${server.url}/v5/x` });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe("");
    } finally {
      await server.close();
    }
  });

  it("names the system's refusal, with its code", async () => {
    const failed = await client()
      .send({ method: "GET", url: `${REFUSING_URL}/v5/x` })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TransportError);
    expect((failed as Error).message).toBe(
      `no answer from ${REFUSING_URL}/v5/x: ECONNREFUSED (connect ECONNREFUSED ${new URL(REFUSING_URL).host})`,
    );
  });

  it("calls a body cut off before its end no answer", async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("{");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const failed = await client()
        .send({ method: "GET", url: `${server.url}/v5/x` })
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(TransportError);
      expect((failed as TransportError).timedOut).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("refuses a URL that is not http or https before sending, as the target's unusable answer", async () => {
    const failed = await client()
      .send({ method: "GET", url: "ftp://127.0.0.1/x" })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnusableAnswer);
    expect((failed as UnusableAnswer).message).toContain('the target gave "ftp://127.0.0.1/x"');
    expect((failed as UnusableAnswer).evidence.diagnostics).toEqual([
      "GET ftp://127.0.0.1/x: not an absolute http(s) URL",
    ]);
  });
});
