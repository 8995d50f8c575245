// The time from the end of a burst to a complete cassette, for builds of assopay record side by side.
// Usage: node --import tsx bench/record-drain.ts DIST [DIST ...] [--requests N] [--connections N]
//        [--size BYTES] [--rounds N]
// Each round, for each build in turn: a fresh recorder, a burst of N requests (unique, keep-alive
// clients); once every response has arrived, the clock runs until the cassette holds all N documents.
// Also reported: the recorder process's CPU time (all its threads, from /proc) per exchange, from the
// start of the burst to the complete cassette: what recording costs, whatever the machine's load.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { burst } from "./lib/burst.js";
import { NO_CASSETTE_BOUND } from "./lib/catch-up.js";
import { createContext } from "./lib/context.js";

const HELP = `Usage: node --import tsx bench/record-drain.ts DIST [DIST ...] [options]

For each build of assopay record (a copy of dist/, inside the checkout), in turn: a burst of requests,
then the time until the cassette holds every exchange, and the recorder's CPU time per exchange.

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

try {
  const upstream = await ctx.start(ctx.system("upstream", ["--size", values.size]));
  const results = new Map<string, { rps: number[]; drain: number[]; cpu: number[]; main: number[] }>();
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
          "--max-cassette-bytes",
          NO_CASSETTE_BOUND,
          "--quiet",
        ],
      });
      const measured = await burst(recorder.url, recorder.pid, cassette, requests, connections);
      await recorder.close();
      const entry = results.get(dist) ?? { rps: [], drain: [], cpu: [], main: [] };
      entry.rps.push(measured.rps);
      entry.drain.push(measured.lagMs);
      entry.cpu.push(measured.cpuUs);
      entry.main.push(measured.mainCpuUs);
      results.set(dist, entry);
      ctx.log(
        `  round ${round + 1}, ${dist}: ${Math.round(measured.rps)} req/s, cassette complete ${measured.lagMs.toFixed(0)} ms after the burst, CPU ${measured.cpuUs.toFixed(0)} µs/exchange (main thread ${measured.mainCpuUs.toFixed(0)})`,
      );
    }
  }
  for (const [dist, { rps, drain, cpu, main }] of results) {
    process.stdout.write(
      `${dist.padEnd(24)} burst ${Math.round(median(rps))} req/s (median)  end of burst → complete cassette ${median(drain).toFixed(0)} ms  CPU ${median(cpu).toFixed(0)} µs/exchange, main thread ${median(main).toFixed(0)} (medians of ${drain.length})\n`,
    );
  }
} finally {
  await ctx.dispose();
}
