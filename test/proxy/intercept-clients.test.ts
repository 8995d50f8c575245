import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRELOAD, perTest, quietEnvironment, run, SOCKET_GUARD } from "./support/intercept.js";

const HOST = "api.helloasso.com";
const OTHER_CLIENTS = join(import.meta.dirname, "..", "fixtures", "intercept", "other-clients.mjs");
const { defer, upstream } = perTest("assopay-intercept-clients-");

/**
 * The user's own HTTP proxy on 127.0.0.1: it keeps the first line of every request it is sent, opens
 * the tunnel a `CONNECT 127.0.0.1:PORT` asks for, and answers anything else 403.
 */
async function startProxy(): Promise<{ url: string; heard: string[] }> {
  const heard: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.once("data", (data) => {
      const line = data.toString("latin1").split("\r\n")[0] ?? "";
      heard.push(line);
      const port = /^CONNECT 127\.0\.0\.1:(\d+) /.exec(line)?.[1];
      if (port === undefined) return socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      const tunnel = connect(Number(port), "127.0.0.1", () => {
        socket.write("HTTP/1.1 200 Connection established\r\n\r\n");
        socket.pipe(tunnel).pipe(socket);
      });
      sockets.add(tunnel);
      tunnel.on("error", () => socket.destroy());
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  defer(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((closed) => server.close(closed));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heard };
}

interface Outcome {
  code: number;
  stderr: string;
  result?: { status?: number; body?: string; error?: string; code?: string; connected?: boolean };
}

/** One route of `other-clients.mjs` under the socket guard, with the preload pointed at `target` or without. */
async function client(route: string, target: string | undefined, ...extra: string[]): Promise<Outcome> {
  const env = {
    ...quietEnvironment(),
    ASSOPAY_INTERCEPT_HOSTS: target === undefined ? undefined : HOST,
    ASSOPAY_INTERCEPT_TARGET: target,
  };
  const preload = target === undefined ? [] : ["--import", PRELOAD];
  const args = ["--import", "tsx", "--require", SOCKET_GUARD, ...preload, OTHER_CLIENTS, route, ...extra];
  try {
    const { stdout, stderr } = await run(process.execPath, args, env);
    return { code: 0, stderr, result: JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const REFUSED = ["undici-pool", "http2", "tls", "net"];

// Child processes (tsx) are slow on a loaded machine: a generous time limit per test.
describe("the preload and the Node clients that do not go through fetch's global dispatcher", {
  timeout: 120_000,
}, () => {
  it("without the preload, each route heads for the live host (the socket guard stops it: exit 97)", async () => {
    for (const route of ["fetch-dispatcher", ...REFUSED]) {
      const outcome = await client(route, undefined);
      expect(outcome.code, route).toBe(97);
      expect(outcome.stderr, route).toMatch(
        new RegExp(`socket-guard: refused a (connection to|DNS lookup of) ${HOST}`),
      );
    }
  });

  it("fetch with its own undici Agent is caught: recorded through the target, the origin meant kept", async () => {
    const target = await upstream();
    const outcome = await client("fetch-dispatcher", target.url);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.result?.status).toBe(200);
    expect(target.seen.map((s) => [s.path, s.intercepted])).toEqual([
      ["/v5/partners/me?route=agent", `https://${HOST}`],
    ]);
  });

  it("an undici Pool, http2.connect, tls.connect and net.connect are refused loudly, naming the host", async () => {
    const target = await upstream();
    for (const route of REFUSED) {
      const outcome = await client(route, target.url);
      expect(outcome.code, `${route}: ${outcome.stderr}`).toBe(0);
      expect(outcome.result?.error, route).toMatch(
        new RegExp(`assopay-contract/intercept: refused a connection to ${HOST}:(443|80)`),
      );
      expect(outcome.stderr, route).toContain(`refused a connection to ${HOST}`);
      expect(outcome.stderr, route).not.toContain("socket-guard");
    }
    expect(target.seen).toEqual([]);
  });

  it("a worker_threads Worker is intercepted as the main thread is: fetch and https.get redirected, tls.connect refused", async () => {
    const target = await upstream();
    for (const route of ["worker-fetch", "worker-https", "worker-tls"]) {
      // Without the preload the Worker heads for the live host (the socket guard, required in every
      // thread, ends the Worker with 97).
      const bare = await client(route, undefined);
      expect(bare.result, route).toEqual({ exit: 97 });
      expect(bare.stderr, route).toMatch(
        new RegExp(`socket-guard: refused a (connection to|DNS lookup of) ${HOST}`),
      );
    }
    const fetched = await client("worker-fetch", target.url);
    expect(fetched.result?.status, fetched.stderr).toBe(200);
    const got = await client("worker-https", target.url);
    expect(got.result?.status, got.stderr).toBe(200);
    expect(target.seen.map((s) => [s.path, s.intercepted])).toEqual([
      ["/v5/partners/me?route=worker-fetch", `https://${HOST}`],
      ["/v5/partners/me?route=worker-https", `https://${HOST}`],
    ]);
    const tls = await client("worker-tls", target.url);
    expect(tls.result?.error).toMatch(
      new RegExp(`assopay-contract/intercept: refused a connection to ${HOST}:443`),
    );
    expect(tls.stderr).not.toContain("socket-guard");
  });

  it("undici's ProxyAgent never asks the user's proxy for an intercepted host; other hosts go through it untouched", async () => {
    const target = await upstream();
    const other = await upstream();
    const proxy = await startProxy();
    // Without the preload, the proxy is asked for a tunnel to the live service.
    const bare = await client("proxy-agent", undefined, proxy.url);
    expect(bare.code, bare.stderr).toBe(0);
    expect(proxy.heard).toEqual([`CONNECT ${HOST}:443 HTTP/1.1`]);
    proxy.heard.length = 0;

    const refused = await client("proxy-agent", target.url, proxy.url);
    expect(refused.result?.error, refused.stderr).toMatch(
      new RegExp(`assopay-contract/intercept: refused a connection to ${HOST}:443`),
    );
    expect(refused.stderr).toContain(`refused a connection to ${HOST}:443`);
    const untouched = await client("proxy-other", target.url, proxy.url, other.url);
    expect(untouched.result?.status, untouched.stderr).toBe(200);

    expect(proxy.heard).toEqual([`CONNECT ${new URL(other.url).host} HTTP/1.1`]);
    expect(other.seen.map((s) => [s.path, s.intercepted])).toEqual([
      ["/v5/elsewhere?route=proxy-other", undefined],
    ]);
    expect(target.seen).toEqual([]);
  });
});
