// Runs a Node entry point in this process and, at exit, prints its wall time and peak memory.
// Usage: node bench/systems/measured.ts ENTRY.js [args...]   → stderr: MEASURED {"wallMs":…,"maxRssKb":…}
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [entry, ...args] = process.argv.slice(2);
if (!entry) throw new Error("usage: measured.ts ENTRY [args...]");
process.argv = [process.argv[0] ?? "node", entry, ...args];
const started = performance.now();
process.on("exit", (code) => {
  const report = {
    wallMs: Math.round(performance.now() - started),
    maxRssKb: process.resourceUsage().maxRSS,
    exitCode: code,
  };
  process.stderr.write(`MEASURED ${JSON.stringify(report)}\n`);
});
await import(pathToFileURL(entry).href);
