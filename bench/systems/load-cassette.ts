// Loads a cassette with the project's reader and prints the time and memory it took.
// Usage: node bench/systems/load-cassette.ts DIST_PROXY_INDEX.js CASSETTE   → stdout: LOADED {…}
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [proxyIndex, cassette] = process.argv.slice(2);
if (!proxyIndex || !cassette) throw new Error("usage: load-cassette.ts PROXY_INDEX CASSETTE");
const { loadCassette } = (await import(pathToFileURL(proxyIndex).href)) as {
  loadCassette(path: string): Promise<{ interactions: unknown[] }>;
};
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const loaded = await loadCassette(cassette);
const ms = performance.now() - started;
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
process.stdout.write(
  `LOADED ${JSON.stringify({ interactions: loaded.interactions.length, ms: Math.round(ms), heapMb: Math.round((heapAfter - heapBefore) / 1e5) / 10, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
