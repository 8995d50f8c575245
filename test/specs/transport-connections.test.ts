import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createLeafIssuer, loadOrCreateCa } from "../../proxy/forward/ca.js";
import { createHttpClient, type OwnedHttpClient, TransportError } from "../../specs/runner/http.js";

/** verify's client over connections that break or need trust: see transport.test.ts for the answers. */
const JSON_TEXT = JSON.stringify({ data: [{ id: 1, name: "Gala — entrée" }], pagination: {} });

const opened: OwnedHttpClient[] = [];
const client = (): OwnedHttpClient =>
  createHttpClient({ timeoutMs: 5_000, signal: new AbortController().signal, userAgent: "transport-test" });

afterEach(() => {
  for (const made of opened.splice(0)) made.close();
});

describe("verify's HTTP client: connections", () => {
  /**
   * A server that answers each connection's first request and, on its second, closes the connection
   * unanswered: what a server does that drops an idle kept-alive connection as a request goes out on it.
   */
  async function closingSecondRequests() {
    const requests: string[] = [];
    const server = createNetServer((socket) => {
      let seen = 0;
      socket.on("data", (chunk: Buffer) => {
        requests.push(chunk.toString("latin1").split(" ", 1)[0] ?? "");
        seen += 1;
        if (seen === 1)
          socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}");
        else socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it("sends an idempotent request again, once, when the kept-alive connection it went out on was closed", async () => {
    const server = await closingSecondRequests();
    try {
      const made = client();
      opened.push(made);
      await made.send({ method: "GET", url: `${server.url}/v5/first` });
      const again = await made.send({ method: "GET", url: `${server.url}/v5/second` });
      expect(again.status).toBe(200);
      expect(server.requests).toEqual(["GET", "GET", "GET"]);
      made.close(); // else the server's close waits for the kept-alive connection's 4 s idle timeout
    } finally {
      await server.close();
    }
  });

  it("never sends a POST twice: the closed connection is no answer", async () => {
    const server = await closingSecondRequests();
    try {
      const made = client();
      opened.push(made);
      await made.send({ method: "GET", url: `${server.url}/v5/first` });
      const failed = await made
        .send({
          method: "POST",
          url: `${server.url}/oauth2/token`,
          body: { contentType: "text/plain", text: "x" },
        })
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(TransportError);
      expect((failed as Error).message).toMatch(/: ECONNRESET \(socket hang up\)$/);
      expect(server.requests).toEqual(["GET", "POST"]);
    } finally {
      await server.close();
    }
  });

  it("speaks TLS to an https target, trusting what Node trusts (NODE_EXTRA_CA_CERTS) and nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "assopay-transport-"));
    const ca = await loadOrCreateCa(dir);
    const issuer = createLeafIssuer(ca);
    const server = createHttpsServer(
      { SNICallback: (_, done) => done(null, issuer("localhost")) },
      (_, res) => res.end(JSON_TEXT),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `https://localhost:${(server.address() as AddressInfo).port}/v5/x`;
    const probe = async (env: NodeJS.ProcessEnv) => {
      const run = promisify(execFile);
      const { stdout } = await run(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "fixtures", "https-send.ts"), url],
        { env, timeout: 300_000 },
      );
      return JSON.parse(stdout.trim()) as { status?: number; text?: string; failed?: string };
    };
    try {
      const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
      expect(await probe({ ...without, NODE_EXTRA_CA_CERTS: ca.certFile })).toEqual({
        status: 200,
        text: JSON_TEXT,
      });
      expect((await probe(without)).failed).toMatch(
        /^no answer from https:\/\/localhost:\d+\/v5\/x: SELF_SIGNED_CERT_IN_CHAIN \(self-signed certificate in certificate chain\)$/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
