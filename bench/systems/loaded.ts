// Loads a cassette in this process with a build's reader (`loadCassette`), or with `--replay` starts a
// replay of it (`startReplay`, as the CLI does), and prints how long that took and the memory it kept.
// Run with --expose-gc: the heap is measured after a collection (startReplay ends with one anyway).
// Usage: node --expose-gc --import tsx bench/systems/loaded.ts DIST_PROXY_INDEX.js CASSETTE [--replay]
//   → stdout: LOADED {"interactions":…,"ms":…,"heapMb":…,"heapGrewMb":…,"externalMb":…,"rssMb":…,"maxRssKb":…}
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [proxyIndex, cassette, mode] = process.argv.slice(2);
if (!proxyIndex || !cassette) throw new Error("usage: loaded.ts PROXY_INDEX CASSETTE [--replay]");
const proxy = (await import(pathToFileURL(proxyIndex).href)) as {
  loadCassette(path: string): Promise<{ interactions: unknown[] }>;
  startReplay(options: { cassettes: string; port: number }): Promise<{ interactions: number }>;
};
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const interactions =
  mode === "--replay"
    ? (await proxy.startReplay({ cassettes: cassette, port: 0 })).interactions
    : (await proxy.loadCassette(cassette)).interactions.length;
const ms = Math.round(performance.now() - started);
global.gc?.();
const memory = process.memoryUsage();
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const figures = {
  interactions,
  ms,
  heapMb: mb(memory.heapUsed),
  heapGrewMb: mb(memory.heapUsed - heapBefore),
  // Buffers (a replay's held response bodies) are counted in `external`.
  externalMb: mb(memory.external),
  rssMb: mb(memory.rss),
  maxRssKb: process.resourceUsage().maxRSS,
};
process.stdout.write(`LOADED ${JSON.stringify(figures)}\n`);
process.exit(0);
