import { createServer, type ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { startServer } from "../../core/http/server.js";
import { createHttpClient, RATE_LIMIT, retryAfterMs } from "../../specs/runner/http.js";

/** A loopback server that answers 429 (with `retryAfter`) to its first `limited` requests, then 200. */
async function limiting(limited: number, retryAfter: string | undefined) {
  const times: number[] = [];
  const server = createServer((_, res: ServerResponse) => {
    times.push(Date.now());
    if (times.length <= limited) {
      res.writeHead(429, retryAfter === undefined ? {} : { "retry-after": retryAfter });
      res.end('{"errors":[{"code":"TooManyRequests","message":"slow down"}]}');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"data":[],"pagination":{}}');
  });
  const running = await startServer(server, { what: "rate-limited provider" });
  return { url: running.url, times, close: () => running.close() };
}

const client = (signal = new AbortController().signal) =>
  createHttpClient({ timeoutMs: 5_000, signal, userAgent: "assopay-test" });

describe("verify under the service's rate limit", () => {
  /** What one request to a provider limiting its first `limited` requests came back with, and when it asked. */
  const askOnce = async (limited: number) => {
    const provider = await limiting(limited, "0");
    const http = client();
    try {
      const answer = await http.send({ method: "GET", url: `${provider.url}/v5/x` });
      return { status: answer.status, asked: provider.times.length };
    } finally {
      http.close();
      await provider.close();
    }
  };

  it("asks a 429 again after its Retry-After, and gets the answer behind it", async () => {
    expect(await askOnce(2)).toEqual({ status: 200, asked: 3 });
  });

  it("lets a 429 stand after three retries, for the check that asked to judge", async () => {
    expect(await askOnce(10)).toEqual({ status: 429, asked: 1 + RATE_LIMIT.retries });
  });

  it("waits the Retry-After it was given, and stops waiting when the run is stopped", async () => {
    const provider = await limiting(1, "1");
    const http = client();
    try {
      expect((await http.send({ method: "GET", url: `${provider.url}/a` })).status).toBe(200);
      const [first = 0, second = 0] = provider.times;
      expect(second - first).toBeGreaterThanOrEqual(950);
    } finally {
      http.close();
      await provider.close();
    }
    const stopped = await limiting(5, "10");
    const run = new AbortController();
    const aborting = client(run.signal);
    try {
      setTimeout(() => run.abort(new Error("stopped")), 100);
      const answer = await aborting.send({ method: "GET", url: `${stopped.url}/b` });
      expect(answer.status).toBe(429);
      // Asked once: the 10-second wait before asking again was given up when the run stopped.
      expect(stopped.times).toHaveLength(1);
    } finally {
      aborting.close();
      await stopped.close();
    }
  });

  it("reads Retry-After as seconds or an HTTP date, 1 s without one, never more than 10 s", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:02 GMT", now)).toBe(2_000);
    expect(retryAfterMs(null, now)).toBe(RATE_LIMIT.defaultWaitMs);
    expect(retryAfterMs("soon", now)).toBe(RATE_LIMIT.defaultWaitMs);
    expect(retryAfterMs("3600", now)).toBe(RATE_LIMIT.maxWaitMs);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });
});
