// The time from the end of a burst to a complete cassette, for builds of assopay record side by side.
// Usage: node --import tsx bench/record-drain.ts DIST [DIST ...] [--requests N] [--connections N]
//        [--size BYTES] [--rounds N]
// Each round, for each build in turn: a fresh recorder, a burst of N requests (unique, keep-alive
// clients); once every response has arrived, the clock runs until the cassette holds all N documents.
import { closeSync, openSync, readSync } from "node:fs";
import { Agent, request } from "node:http";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createContext } from "./lib/context.js";

const HELP = `Usage: node --import tsx bench/record-drain.ts DIST [DIST ...] [options]

For each build of assopay record (a copy of dist/, inside the checkout), in turn: a burst of requests,
then the time until the cassette holds every exchange.

Options:
  --requests N      requests per burst (default 5000)
  --connections N   keep-alive clients (default 50)
  --size BYTES      body size (default 2048)
  --rounds N        rounds (default 3)
  --help            this text

Example:
  node --import tsx bench/record-drain.ts .scratch/before dist --requests 200 --size 307200`;

const { values, positionals: dists } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: "string", default: "5000" },
    connections: { type: "string", default: "50" },
    size: { type: "string", default: "2048" },
    rounds: { type: "string", default: "3" },
    help: { type: "boolean", default: false },
  },
});
if (values.help || dists.length === 0) {
  process.stdout.write(`${HELP}\n`);
  process.exit(values.help ? 0 : 2);
}
const requests = Number(values.requests);
const connections = Number(values.connections);
const ctx = createContext({ durationSeconds: 1, rounds: 1, warmupSeconds: 0, only: [], write: false });

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

try {
  const upstream = await ctx.start(ctx.system("upstream", ["--size", values.size]));
  const results = new Map<string, { rps: number[]; drain: number[] }>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [i, dist] of dists.entries()) {
      const cassette = join(ctx.scratch, `drain-${round}-${i}.yaml`);
      const recorder = await ctx.start({
        command: process.execPath,
        args: [
          join(resolve(dist), "cli", "bin.js"),
          "record",
          "--upstream",
          upstream.url,
          "--cassette",
          cassette,
          "--port",
          "0",
          "--quiet",
        ],
      });
      const agent = new Agent({ keepAlive: true, maxSockets: connections });
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          for (let n = next++; n < requests; n = next++) await get(agent, `${recorder.url}/v5/items?i=${n}`);
        }),
      );
      const burstEnd = performance.now();
      const documents = documentCounter(cassette);
      while (documents() < requests) await new Promise((r) => setTimeout(r, 2));
      const complete = performance.now();
      agent.destroy();
      await recorder.close();
      const entry = results.get(dist) ?? { rps: [], drain: [] };
      entry.rps.push((requests * 1000) / (burstEnd - started));
      entry.drain.push(complete - burstEnd);
      results.set(dist, entry);
      ctx.log(
        `  round ${round + 1}, ${dist}: ${Math.round((requests * 1000) / (burstEnd - started))} req/s, cassette complete ${(complete - burstEnd).toFixed(0)} ms after the burst`,
      );
    }
  }
  for (const [dist, { rps, drain }] of results) {
    process.stdout.write(
      `${dist.padEnd(24)} burst ${Math.round(median(rps))} req/s (median)  end of burst → complete cassette ${median(drain).toFixed(0)} ms (median of ${drain.length})\n`,
    );
  }
} finally {
  await ctx.dispose();
}
