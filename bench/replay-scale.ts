// Replay against the size of its cassette: each build serving cassettes of several sizes, measured in
// alternation by the CPU time the replay process itself reports per request (process.cpuUsage), which
// moves far less than req/s on a shared machine. The A/B behind bench/history/performance-log.md, 2026-11-24.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createContext } from "./lib/context.js";
import { runLoad } from "./lib/load.js";
import { recordCassette } from "./lib/prepare.js";
import { median } from "./lib/stats.js";

const HELP = `Usage: node --import tsx bench/replay-scale.ts DIST[+NODE_FLAG...] [DIST ...] [options]

Starts each build's replay (bench/systems/replay-loaded.ts) on each cassette size, prints load time and
memory, then measures every replay in alternation under the bench's request mix (ten GETs, 2 KB bodies).
A build may be named with node flags of its own: dist+--single-threaded-gc runs that build with the flag.

Options:
  --interactions N  a cassette size (repeatable; default 10, 10000, 100000)
  --duration S      seconds per measurement (default 5)
  --rounds N        rounds (default 3)
  --connections N   autocannon connections (default 10)
  --cpu-prof DIR    write a CPU profile of each replay process into DIR (one run, on exit)
  --node-option F   a flag for node in every replay process (repeatable), e.g. --max-semi-space-size=4
  --cassettes DIR   where the recorded cassettes are kept and reused (default .scratch/replay-scale)`;

const PATH = "/v5/organizations/bench/items?pageSize=20";
const PATHS = Array.from({ length: 10 }, (_, i) => `${PATH}&i=${i + 1}`);

const { values, positionals: dists } = parseArgs({
  allowPositionals: true,
  options: {
    interactions: { type: "string", multiple: true },
    duration: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    "cpu-prof": { type: "string" },
    "node-option": { type: "string", multiple: true },
    cassettes: { type: "string", default: ".scratch/replay-scale" },
    help: { type: "boolean", default: false },
  },
});
if (values.help || dists.length === 0) {
  process.stdout.write(`${HELP}\n`);
  process.exit(values.help ? 0 : 2);
}

interface Usage {
  cpuUs: number;
  count: number;
  ms: number;
  majorCount: number;
  majorMs: number;
}

interface Replay {
  name: string;
  url: string;
  child: ChildProcess;
  usage(): Promise<Usage>;
  runs: { cpuUs: number; gcMs: number; gcCount: number; majorCount: number; majorMs: number; rps: number }[];
}

function startReplay(name: string, build: string, cassette: string, profDir?: string): Promise<Replay> {
  const [dist = build, ...flags] = build.split("+");
  const prof = [
    ...(values["node-option"] ?? []),
    ...flags,
    ...(profDir ? ["--cpu-prof", "--cpu-prof-dir", profDir] : []),
  ];
  const child = spawn(
    process.execPath,
    [
      ...prof,
      "--import",
      "tsx",
      "bench/systems/replay-loaded.ts",
      join(resolve(dist), "proxy", "index.js"),
      cassette,
    ],
    { stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  const usage = () =>
    new Promise<Usage>((done) => {
      child.once("message", (m) => done(m as Usage));
      child.send("usage");
    });
  return new Promise((done, fail) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /REPLAY (\S+) (\{.*\})/.exec(out);
      if (!line?.[1]) return;
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      process.stderr.write(`${name.padEnd(34)} loaded: ${line[2]}\n`);
      done({ name, url: line[1], child, usage, runs: [] });
    });
    child.once("exit", (code) => fail(new Error(`${name} exited with ${code}: ${out}`)));
  });
}

const ctx = createContext({ durationSeconds: 5, rounds: 1, warmupSeconds: 1, only: [], write: false });
const replays: Replay[] = [];
try {
  const sizes = (values.interactions ?? ["10", "10000", "100000"]).map(Number);
  const folder = resolve(values.cassettes);
  mkdirSync(folder, { recursive: true });
  const missing = sizes.filter((n) => !existsSync(join(folder, `replay-${n}.yaml`)));
  if (missing.length > 0) {
    const upstream = await ctx.start(ctx.system("upstream", ["--size", "2048"]));
    for (const count of missing) {
      ctx.log(`recording ${count} interactions`);
      const file = join(folder, `replay-${count}.yaml`);
      await recordCassette(ctx, upstream.url, `${file}.part`, PATH, count);
      renameSync(`${file}.part`, file);
    }
    await ctx.closeAll();
  }
  for (const count of sizes) {
    for (const dist of dists) {
      const name = `${dist} (${count})`;
      replays.push(await startReplay(name, dist, join(folder, `replay-${count}.yaml`), values["cpu-prof"]));
    }
  }
  const durationSeconds = Number(values.duration);
  const spec = (r: Replay, seconds: number) => ({
    url: r.url,
    connections: Number(values.connections),
    durationSeconds: seconds,
    paths: PATHS,
  });
  for (const r of replays) await runLoad(spec(r, 1));
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    const shift = round % replays.length;
    for (const r of [...replays.slice(shift), ...replays.slice(0, shift)]) {
      const before = await r.usage();
      const load = await runLoad(spec(r, durationSeconds));
      const after = await r.usage();
      const per = (x: number) => x / load.total;
      const run = {
        cpuUs: per(after.cpuUs - before.cpuUs),
        gcMs: per(after.ms - before.ms) * 1000,
        gcCount: after.count - before.count,
        majorCount: after.majorCount - before.majorCount,
        majorMs: after.majorMs - before.majorMs,
        rps: load.rps,
      };
      r.runs.push(run);
      ctx.log(
        `  round ${round + 1}/${rounds} ${r.name.padEnd(34)} ${Math.round(run.rps)} req/s  cpu ${run.cpuUs.toFixed(2)} µs/req  gc ${run.gcMs.toFixed(2)} µs/req (${run.gcCount}, of which ${run.majorCount} not scavenges: ${run.majorMs.toFixed(1)} ms)${load.errors + load.non2xx > 0 ? `  ${load.errors} errors ${load.non2xx} non-2xx` : ""}`,
      );
    }
  }
  process.stdout.write(
    "\nmedians: CPU µs per request (GC µs per request), req/s; ratio to the same build's first size\n",
  );
  for (const r of replays) {
    const cpu = median(r.runs.map((x) => x.cpuUs));
    const base = replays.find((o) => o.name.startsWith(r.name.slice(0, r.name.lastIndexOf("("))));
    const ratio = base ? cpu / median(base.runs.map((x) => x.cpuUs)) : Number.NaN;
    process.stdout.write(
      `${r.name.padEnd(34)} ${cpu.toFixed(2)} (${median(r.runs.map((x) => x.gcMs)).toFixed(2)})  ${Math.round(median(r.runs.map((x) => x.rps)))} req/s  ${ratio.toFixed(3)}×\n`,
    );
  }
} finally {
  for (const r of replays) {
    if (r.child.exitCode === null) {
      const exited = new Promise((done) => r.child.once("exit", done));
      r.child.send("stop");
      await exited;
    }
  }
  await ctx.dispose();
}
