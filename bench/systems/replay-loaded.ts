// Starts a replay of one build in this process and prints how long loading took and the memory it kept.
// Usage: node --import tsx bench/systems/replay-loaded.ts DIST_PROXY_INDEX.js CASSETTE
//   → stdout: REPLAY http://127.0.0.1:PORT {"interactions":…,"loadMs":…,"heapMb":…,"rssMb":…}
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [proxyIndex, cassette] = process.argv.slice(2);
if (!proxyIndex || !cassette) throw new Error("usage: replay-loaded.ts PROXY_INDEX CASSETTE");
const { startReplay } = (await import(pathToFileURL(proxyIndex).href)) as {
  startReplay(options: { cassettes: string; port: number }): Promise<{ url: string; interactions: number }>;
};

const started = performance.now();
const replay = await startReplay({ cassettes: cassette, port: 0 });
const loadMs = performance.now() - started;
// startReplay ends with a full collection: what is in use now is what the replay keeps.
const memory = process.memoryUsage();
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const figures = {
  interactions: replay.interactions,
  loadMs: Math.round(loadMs),
  heapMb: mb(memory.heapUsed),
  // Buffers (the held response bodies) are counted in `external`.
  externalMb: mb(memory.external),
  rssMb: mb(memory.rss),
};
process.stdout.write(`REPLAY ${replay.url} ${JSON.stringify(figures)}\n`);
process.on("SIGTERM", () => process.exit(0));
