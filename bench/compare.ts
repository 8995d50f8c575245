// Compares builds of assopay side by side, in one run, in alternation: the A/B behind bench/history/performance-log.md.
// Build, copy dist/ aside, change the code, build again, then compare the two copies (see --help).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cassetteCaughtUp, NO_CASSETTE_BOUND } from "./lib/catch-up.js";
import { createContext } from "./lib/context.js";
import { recordCassette } from "./lib/prepare.js";
import { alternate, type Contender } from "./lib/rounds.js";
import { cpuPerRequest, percent, whole } from "./lib/stats.js";

const HELP = `Usage: node --import tsx bench/compare.ts record|replay DIST [DIST ...] [options]

Measures each build (a copy of dist/) against the same baseline in one run, in alternation:
  record   assopay record of each build, baseline a bare http-proxy (every request new)
  replay   assopay replay of each build, baseline a plain node:http server

Options:
  --duration S      seconds per measurement (default 5)
  --rounds N        rounds (default 3)
  --connections N   autocannon connections (default 10)
  --size BYTES      body size (default 2048)
  --interactions N  replay: interactions in the cassette (default 10; repeat the flag for several)
  --help            this text

Example:
  npm run build && rm -rf .scratch/before && cp -r dist .scratch/before   # then change the code
  npm run build && node --import tsx bench/compare.ts replay .scratch/before dist

A copy must stay inside the checkout (.scratch/ is ignored by git): the recorder finds its package.json,
and the copy its node_modules, by walking up from where it lies.`;

const PATH = "/v5/organizations/bench/items?pageSize=20";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    size: { type: "string", default: "2048" },
    interactions: { type: "string", multiple: true },
    help: { type: "boolean", default: false },
  },
});
const [suite, ...dists] = positionals;
if (values.help || (suite !== "record" && suite !== "replay") || dists.length === 0) {
  process.stdout.write(`${HELP}\n`);
  process.exit(values.help ? 0 : 2);
}
for (const dist of dists) {
  if (!existsSync(join(dist, "cli", "bin.js"))) {
    process.stderr.write(
      `error: ${dist} is not a build (no cli/bin.js); hint: npm run build, then copy dist/\n`,
    );
    process.exit(2);
  }
}

const durationSeconds = Number(values.duration);
const ctx = createContext({
  durationSeconds,
  rounds: Number(values.rounds),
  warmupSeconds: 1,
  only: [],
  write: false,
});
const built = (dist: string, args: string[]) => ({
  command: process.execPath,
  args: [join(resolve(dist), "cli", "bin.js"), ...args],
});
try {
  const upstream = await ctx.start(ctx.system("upstream", ["--size", values.size]));
  const contenders: Contender[] = [];
  if (suite === "replay") {
    const paths = Array.from({ length: 10 }, (_, i) => `${PATH}&i=${i + 1}`);
    contenders.push({ name: "node:http (fixed body)", url: upstream.url, paths, pid: upstream.pid });
    for (const count of (values.interactions ?? ["10"]).map(Number)) {
      const cassette = join(ctx.scratch, `replay-${count}.yaml`);
      await recordCassette(ctx, upstream.url, cassette, PATH, count);
      for (const dist of dists) {
        const replay = await ctx.start(
          built(dist, ["replay", "--cassette", cassette, "--port", "0", "--quiet"]),
        );
        contenders.push({ name: `${dist} (${count})`, url: replay.url, paths, pid: replay.pid });
      }
    }
  } else {
    const bare = await ctx.start(ctx.system("bare-proxy", ["--upstream", upstream.url]));
    contenders.push({ name: "http-proxy (bare, keep-alive)", url: `${bare.url}${PATH}`, pid: bare.pid });
    for (const [i, dist] of dists.entries()) {
      const cassette = join(ctx.scratch, `record-${i}.yaml`);
      const args = ["record", "--upstream", upstream.url, "--cassette", cassette, "--port", "0"];
      // Builds older than the cassette bound have no such flag.
      if (existsSync(join(dist, "proxy", "record", "cassette-budget.js"))) {
        args.push("--max-cassette-bytes", NO_CASSETTE_BOUND);
      }
      const recorder = await ctx.start(built(dist, [...args, "--mode", "all", "--quiet"]));
      contenders.push({
        name: dist,
        url: `${recorder.url}${PATH}`,
        pid: recorder.pid,
        settle: () => cassetteCaughtUp(cassette),
      });
    }
  }
  const results = await alternate(contenders, {
    connections: Number(values.connections),
    durationSeconds,
    rounds: Number(values.rounds),
    warmupSeconds: 1,
    unique: suite === "record",
    log: ctx.log,
  });
  const base = results[0];
  for (const m of results) {
    const ratio = base ? percent(m.rps / base.rps) : "n/a";
    const errors = m.errors + m.non2xx;
    const settled = Number.isFinite(m.settleMs)
      ? `  cassette complete ${whole(m.settleMs)} ms after a round (counting it: ${base ? percent(m.sustainedRps / base.rps) : "n/a"})`
      : "";
    process.stdout.write(
      `${m.name.padEnd(36)} ${whole(m.rps).padStart(8)} req/s  p99 ${m.p99} ms  cpu ${cpuPerRequest(m.cpuUs)} µs/req (main thread ${cpuPerRequest(m.mainCpuUs)})  ${ratio}  errors ${errors}${settled}\n`,
    );
  }
} finally {
  await ctx.dispose();
}
