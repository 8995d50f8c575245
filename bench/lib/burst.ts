import { closeSync, openSync, readSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpuTime } from "./cpu.js";

function get(agent: Agent, url: string): Promise<void> {
  return new Promise((done, fail) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => done());
      res.on("error", fail);
    })
      .on("error", fail)
      .end();
  });
}

/**
 * Counts the documents complete in a cassette (each ends with a `...` line) as it grows: each call reads
 * only the bytes appended since the last one, so that watching the cassette does not take the CPU the
 * recorder's worker needs (reading the whole file every 2 ms did, and made the lag look longer).
 */
function documentCounter(file: string): () => number {
  let offset = 0;
  let count = 0;
  let tail = "";
  const chunk = Buffer.allocUnsafe(1 << 20);
  return () => {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      return count; // not created yet
    }
    try {
      for (
        let n = readSync(fd, chunk, 0, chunk.length, offset);
        n > 0;
        n = readSync(fd, chunk, 0, chunk.length, offset)
      ) {
        offset += n;
        const text = tail + chunk.toString("latin1", 0, n);
        for (let at = text.indexOf("\n...\n"); at !== -1; at = text.indexOf("\n...\n", at + 4)) count++;
        tail = text.slice(-4);
      }
    } finally {
      closeSync(fd);
    }
    return count;
  };
}

/** How long a burst's cassette may take to complete before the measure gives up. */
const LAG_TIMEOUT_MS = 300_000;

/** What one burst through a recorder measured. */
export interface BurstResult {
  /** Requests per second while the clients sent them. */
  rps: number;
  /** Milliseconds from the last response's end to the cassette holding every exchange: the lag. */
  lagMs: number;
  /** The recorder process's CPU time (all threads) per exchange, from the burst's start to that moment. */
  cpuUs: number;
  /** The same, its main thread only. */
  mainCpuUs: number;
}

/**
 * A burst of `requests` unique requests (`?i=N`) from `connections` keep-alive clients through a fresh
 * recorder at `url` (process `pid`) writing `cassette`; once every response has arrived, the clock runs
 * until the cassette holds all of them.
 */
export async function burst(
  url: string,
  pid: number,
  cassette: string,
  requests: number,
  connections: number,
): Promise<BurstResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const cpuBefore = cpuTime(pid);
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        for (let n = next++; n < requests; n = next++) await get(agent, `${url}/v5/items?i=${n}`);
      }),
    );
  } finally {
    agent.destroy();
  }
  const burstEnd = performance.now();
  const documents = documentCounter(cassette);
  while (documents() < requests) {
    if (performance.now() - burstEnd > LAG_TIMEOUT_MS)
      throw new Error(`${cassette}: not complete ${LAG_TIMEOUT_MS / 1000} s after the burst`);
    await new Promise((r) => setTimeout(r, 2));
  }
  const complete = performance.now();
  const cpuAfter = cpuTime(pid);
  const per = (seconds: number | undefined) =>
    seconds === undefined ? Number.NaN : (seconds * 1e6) / requests;
  return {
    rps: (requests * 1000) / (burstEnd - started),
    lagMs: complete - burstEnd,
    cpuUs: per(cpuAfter && cpuBefore && cpuAfter.total - cpuBefore.total),
    mainCpuUs: per(cpuAfter && cpuBefore && cpuAfter.main - cpuBefore.main),
  };
}
