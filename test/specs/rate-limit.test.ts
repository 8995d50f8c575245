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

  it("ends the run, not a check, when a 429 still stands after five waits", async () => {
    const provider = await limiting(10, "0");
    const http = client();
    try {
      const asking = http.send({ method: "GET", url: `${provider.url}/v5/x` });
      await expect(asking).rejects.toMatchObject({ code: "rate-limited", exitCode: 2 });
      await expect(asking).rejects.toThrow(/still answered 429 Too Many Requests after 5 waits/);
      expect(provider.times).toHaveLength(1 + RATE_LIMIT.retries);
      // Every later request is refused at once, without asking the target again.
      await expect(http.send({ method: "GET", url: `${provider.url}/v5/y` })).rejects.toMatchObject({
        code: "rate-limited",
      });
      expect(provider.times).toHaveLength(1 + RATE_LIMIT.retries);
      expect(http.refusal()?.hint).toMatch(/--concurrency/);
    } finally {
      http.close();
      await provider.close();
    }
  });

  it("ends the run at once when Retry-After asks for more than a minute", async () => {
    const provider = await limiting(1, "3600");
    const http = client();
    try {
      await expect(http.send({ method: "GET", url: `${provider.url}/a` })).rejects.toThrow(
        /asked verify to wait 3600 s \(Retry-After: 3600\)/,
      );
      expect(provider.times).toHaveLength(1);
    } finally {
      http.close();
      await provider.close();
    }
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
    const stopped = await limiting(5, "50");
    const run = new AbortController();
    const aborting = client(run.signal);
    try {
      const answer = aborting.send({ method: "GET", url: `${stopped.url}/b` });
      // Stopped while it waits: no answer, and the target is not asked again.
      setTimeout(() => run.abort(new Error("stopped")), 100);
      await expect(answer).rejects.toThrow(/stopped/);
      expect(stopped.times).toHaveLength(1);
    } finally {
      aborting.close();
      await stopped.close();
    }
  });

  it("has at most --concurrency requests in flight per target, and pauses them all for a Retry-After", async () => {
    const total = 10;
    let inFlight = 0;
    let most = 0;
    let answered = 0;
    let limitedOnce = false;
    const held: ServerResponse[] = [];
    const arrivals: number[] = [];
    const server = createServer((_, res) => {
      arrivals.push(Date.now());
      // The first request is refused once, asking a second of quiet: no request may start meanwhile.
      if (!limitedOnce) {
        limitedOnce = true;
        res.writeHead(429, { "retry-after": "1" }).end();
        return;
      }
      inFlight++;
      most = Math.max(most, inFlight);
      held.push(res);
      // Answered in batches: as soon as every request that may be in flight at once has arrived.
      if (held.length === Math.min(4, total - answered)) {
        for (const one of held.splice(0)) {
          inFlight--;
          answered++;
          one.writeHead(200, { "content-type": "application/json" }).end("{}");
        }
      }
    });
    const running = await startServer(server, { what: "counting provider" });
    const http = createHttpClient({
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      userAgent: "assopay-test",
      concurrency: 4,
    });
    try {
      const asked = Array.from({ length: total }, (_, i) =>
        http.send({ method: "GET", url: `${running.url}/v5/${i}` }),
      );
      const answers = await Promise.all(asked);
      expect(answers.map((a) => a.status)).toEqual(new Array(total).fill(200));
      expect(most).toBe(4);
      // Four went out at once; the 429 came to one of them, and nothing more went out within the second
      // it asked for. Each answer came after its request.
      const refused = arrivals[0] ?? 0;
      expect(arrivals).toHaveLength(total + 1);
      for (const at of arrivals.slice(4)) expect(at - refused).toBeGreaterThanOrEqual(950);
      for (const a of answers) expect(a.answeredAt).toBeGreaterThan(a.sentAt);
    } finally {
      http.close();
      await running.close();
    }
  });

  it("reads Retry-After as seconds or an HTTP date, 1 s without one", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:02 GMT", now)).toBe(2_000);
    expect(retryAfterMs(null, now)).toBe(RATE_LIMIT.defaultWaitMs);
    expect(retryAfterMs("soon", now)).toBe(RATE_LIMIT.defaultWaitMs);
    expect(retryAfterMs("3600", now)).toBe(3_600_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });
});
