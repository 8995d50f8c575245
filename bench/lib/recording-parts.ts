// assopay record as the bench drives it (bench/suites/recording.ts, recorder-decision.ts, and the
// cassettes of replay.ts and cassette-load.ts): its arguments, the wait for its cassette, a burst's lag,
// and the figures and notes computed from the recording suite's medians.
import { execFile } from "node:child_process";
import { closeSync, fsyncSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { stat } from "node:fs/promises";
import { Agent, request } from "node:http";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import type { BenchContext, ChildSpec } from "./context.js";
import { cpuPerRequest, median, percent, whole } from "./report.js";
import { type Contender, find, type Medians, ratio } from "./rounds.js";

export const PATH = "/v5/organizations/bench/items?pageSize=20";
/** assopay record's forwarding and capture, exchanges dropped: the most any recorder on its path can do. */
export const CEILING = "ceiling: assopay forwarding, nothing written";
/** The floor for big bodies (bench/systems/forwarder.ts --journal): forwarding and the journal's one write. */
export const JOURNAL_FLOOR = "floor: assopay forwarding and its journal, nothing else";

/** The baseline of the recording rounds. */
export const BARE = "http-proxy (bare, keep-alive)";
export const PEERS = {
  talkback: "talkback 4.2 (record)",
  mockttp: "mockttp 4.6 (pass-through + body hook)",
  wiremock: "WireMock 3.13 (record)",
} as const;

/** A system to measure: its name, how to start it, and for assopay record the cassette it writes. */
type System = readonly [name: string, spec: ChildSpec, cassette?: string];

/**
 * Starts the systems at once, each a contender of the rounds on `PATH`; one that cannot run here is left
 * out, and `skipped` says why.
 */
export async function startContenders(
  ctx: BenchContext,
  skipped: string[],
  systems: readonly System[],
): Promise<Contender[]> {
  const started = await Promise.all(
    systems.map(async ([name, spec, cassette]): Promise<Contender | undefined> => {
      try {
        const child = await ctx.start(spec);
        return {
          name,
          url: `${child.url}${PATH}`,
          pid: child.pid,
          ...(cassette === undefined ? {} : { settle: () => cassetteCaughtUp(cassette) }),
        };
      } catch (error) {
        const why = (error as Error).message.split("\n")[0];
        skipped.push(`${name} could not run here: ${why}`);
        ctx.log(`  ${name}: skipped (${why})`);
        return undefined;
      }
    }),
  );
  return started.filter((c) => c !== undefined);
}

/** The recording peers on `up`, their tapes and stubs in the scratch folder under names ending in `tag`. */
export function peers(ctx: BenchContext, up: string, tag: string): System[] {
  const tapes = join(ctx.scratch, `talkback${tag}`);
  const root = join(ctx.scratch, `wiremock${tag}`);
  return [
    [PEERS.talkback, ctx.system("talkback", ["--mode", "record", "--upstream", up, "--tapes", tapes])],
    [PEERS.mockttp, ctx.system("mockttp", ["--upstream", up])],
    [
      PEERS.wiremock,
      {
        ...ctx.system("wiremock", ["--mode", "record", "--root", root, "--upstream", up]),
        startTimeoutMs: 90_000,
      },
    ],
  ];
}

/** What the throughput rows leave out: how long assopay record took, after each round, to finish its cassette. */
export function catchUpNote(...[at10, at50, big, bare10, bare50]: (Medians | undefined)[]): string {
  const ms = (m: Medians | undefined) =>
    m && Number.isFinite(m.settleMs) ? `${whole(m.settleMs)} ms` : "n/a";
  const kept = (m: Medians | undefined, bare: Medians | undefined) =>
    m && bare ? percent(m.sustainedRps / bare.rps) : "n/a";
  return `assopay record answers first and turns its journal into YAML with the CPU time the traffic leaves over, so its cassette lags behind a burst (every exchange is in the journal on disk meanwhile). After each of its rounds, the next round waited until the cassette held every exchange: median ${ms(at10)} at 10 connections, ${ms(at50)} at 50, ${ms(big)} with 1 MB bodies. Counting that time as part of the round, its rate was ${kept(at10, bare10)} of the bare proxy at 10 connections and ${kept(at50, bare50)} at 50.`;
}

/** What the floor shows: the one write alone, against the ceiling, the bare proxy and the pipeline's own cost. */
export function floorNotes(
  runs: { at10: Medians[]; at50: Medians[]; big: Medians[] },
  pipeline2k: number,
  pipeline1m: number,
): string[] {
  const floor = find(runs.big, JOURNAL_FLOOR);
  const over = (list: Medians[]) =>
    cpuPerRequest(overCeiling(find(list, JOURNAL_FLOOR), find(list, CEILING)));
  const what = `"${JOURNAL_FLOOR}" (bench/systems/forwarder.ts --journal) is the ceiling's forwarder with each exchange appended to the journal, the one write the durability rule asks for before the response ends, and nothing else: no scan, no YAML, no second write, no worker.`;
  const small = `With 2 KB bodies that write took ${over(runs.at10)} µs over the ceiling at 10 connections and ${over(runs.at50)} at 50; the 2 KB target (1.5× the pipeline's ${cpuPerRequest(pipeline2k)} µs) leaves ${cpuPerRequest(pipeline2k / 2)} µs for everything besides the pipeline, the journal's write, its reading back and the messages included.`;
  if (!floor) return [what, small];
  const bare = find(runs.big, BARE);
  const big = `With 1 MB bodies the floor reached ${percent(ratio(floor, bare))} of the bare proxy at ${cpuPerRequest(floor.cpuUs)} µs of CPU per exchange (${cpuPerRequest(floor.mainCpuUs)} on its main thread). A recorder that keeps a secret-free cassette does this and also reads every byte of the body: the in-process pipeline alone (the scan, the YAML, the cassette's write) took ${cpuPerRequest(pipeline1m)} µs per 1 MB exchange, ${(pipeline1m / floor.cpuUs).toFixed(1)}× the floor's whole CPU.`;
  return [what, small, big, capacity(runs.big, pipeline1m)];
}

/**
 * The most any recorder doing the floor's work and the pipeline's on each 1 MB exchange can reach here:
 * the machine's cores divided by that work plus what the rest of the machine (the load generator, the
 * upstream, the kernel) spent per exchange in the bare proxy's rounds. A bound on the rate, since it
 * assumes every core busy all the time. Undefined where the floor or the machine's CPU was not measured.
 */
export function bigBound(big: Medians[], pipeline1m: number) {
  const bare = find(big, BARE);
  const floor = find(big, JOURNAL_FLOOR);
  if (!bare || !floor || !Number.isFinite(bare.machineCpuUs)) return undefined;
  const cores = availableParallelism();
  const others = bare.machineCpuUs - bare.cpuUs;
  const least = floor.cpuUs + pipeline1m;
  const most = (cores * 1e6) / (least + others);
  return { bare, cores, others, least, most, ofBare: most / bare.rps };
}

function capacity(big: Medians[], pipeline1m: number): string {
  const bound = bigBound(big, pipeline1m);
  if (!bound) return "The machine's own CPU was not measured here.";
  const { bare, cores, others, least, most, ofBare } = bound;
  return `The whole machine's CPU, 1 MB bodies: in the bare proxy's rounds the ${cores} cores spent ${cpuPerRequest(bare.machineCpuUs)} µs per exchange, ${cpuPerRequest(others)} of it outside the proxy (the load generator, the upstream, the kernel). A recorder that does the floor's work and the in-process pipeline's (${cpuPerRequest(least)} µs per exchange) beside them needs ${cpuPerRequest(least + others)} µs of the machine per exchange, so even with every core busy all the time it answers at most ${whole(most)} exchanges a second here: ${percent(ofBare)} of the bare proxy, where 50% is ${whole(bare.rps / 2)} a second.`;
}

/** Where each Node system's CPU time per request went: its event loop, and its other threads. */
export function cpuSplit(list: readonly (Medians | undefined)[]): string[] {
  return list.flatMap((m) =>
    m && Number.isFinite(m.mainCpuUs)
      ? [
          `${m.name} at ${m.connections} connections: ${m.mainCpuUs.toFixed(1)} µs/req on its main thread (the event loop), ${(m.cpuUs - m.mainCpuUs).toFixed(1)} µs/req on its other threads (V8's garbage-collection helpers, and for assopay record its recording worker).`,
        ]
      : [],
  );
}

/** A burst for the lag: the 200-client load of issue 23, on a fresh recorder. */
export const BURST_CLIENTS = 200;
export const BURST_REQUESTS = 20_000;
/** The most the cassette may lag behind a burst's end (see docs/cassettes.md, the journal's bound). */
export const LAG_TARGET_MS = 500;

/**
 * A `--max-cassette-bytes` no bench round reaches: rounds record hundreds of megabytes, past the default
 * bound (256 MiB), after which a recorder answers 507.
 */
const NO_CASSETTE_BOUND = String(64 * 1024 ** 3);

/**
 * `assopay record` on `upstream` into `cassette`: in mode `all`, as every round runs it (the cassette is
 * written as `<cassette>.recording` until the recorder stops); in mode `once`, for a burst on a fresh
 * cassette, written in place (where the lag is watched).
 */
export function recordArgs(upstream: string, cassette: string, mode: "all" | "once" = "all"): string[] {
  return [
    "record",
    "--upstream",
    upstream,
    "--cassette",
    cassette,
    "--port",
    "0",
    "--mode",
    mode,
    "--max-cassette-bytes",
    NO_CASSETTE_BOUND,
    "--quiet",
  ];
}

/** CPU µs per exchange above the forwarding ceiling measured in the same rounds. */
export function overCeiling(m: Medians | undefined, ceiling: Medians | undefined): number {
  return m && ceiling ? m.cpuUs - ceiling.cpuUs : Number.NaN;
}

/**
 * The recording worker's pipeline alone, in a process of its own (bench/systems/worker-pipeline.ts): the
 * median CPU time, in µs, to decode, redact, serialise and append one captured exchange with a `size`-byte
 * JSON body. What the recorder's extra CPU over the forwarding ceiling is compared with: the rest is transport.
 */
export async function pipelineCostUs(ctx: BenchContext, size: number, count: number): Promise<number> {
  const { command, args } = ctx.system("worker-pipeline", ["--size", String(size), "--count", String(count)]);
  const { stdout } = await promisify(execFile)(command, args, { cwd: ctx.root, maxBuffer: 1024 * 1024 });
  const { perExchangeUs } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    perExchangeUs?: number[];
  };
  return median(perExchangeUs ?? []);
}

/** The journals a recorder on `cassette` may write: its own, and in `--mode all` the new file's. */
function journalsOf(cassette: string): string[] {
  return [`${cassette}.journal`, `${cassette}.recording.journal`];
}

async function pending(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Waits until assopay record has turned everything it journaled into YAML (its journal is emptied then)
 * and returns how long that took, in ms: the time from the end of a burst to a complete cassette.
 * Under load the recorder answers first and writes the cassette with the CPU time left over.
 */
export async function cassetteCaughtUp(cassette: string, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const sizes = await Promise.all(journalsOf(cassette).map(pending));
    if (sizes.every((size) => size === 0)) return performance.now() - started;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${cassette}: the recorder had not caught up after ${timeoutMs / 1000} s`);
    }
    await sleep(10);
  }
}

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

/**
 * A burst of `BURST_REQUESTS` unique requests (`?i=N`) from `BURST_CLIENTS` keep-alive clients through a
 * fresh recorder at `url` writing `cassette`; once every response has arrived, the clock runs until the
 * cassette holds all of them. Returns the requests per second while the clients sent them, and the ms
 * from the last response's end to the complete cassette: the lag.
 */
export async function burst(url: string, cassette: string): Promise<{ rps: number; lagMs: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: BURST_CLIENTS });
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: BURST_CLIENTS }, async () => {
        for (let n = next++; n < BURST_REQUESTS; n = next++) await get(agent, `${url}/v5/items?i=${n}`);
      }),
    );
  } finally {
    agent.destroy();
  }
  const burstEnd = performance.now();
  const documents = documentCounter(cassette);
  while (documents() < BURST_REQUESTS) {
    if (performance.now() - burstEnd > LAG_TIMEOUT_MS)
      throw new Error(`${cassette}: not complete ${LAG_TIMEOUT_MS / 1000} s after the burst`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return { rps: (BURST_REQUESTS * 1000) / (burstEnd - started), lagMs: performance.now() - burstEnd };
}

/**
 * How fast the disk under `folder` takes sustained writes: `megabytes` written in 1 MB blocks and
 * flushed with fsync, in MB/s. Recording large bodies writes about as much cassette as it forwards, so
 * this bounds how many such exchanges per second any recorder can keep up with once the page cache is full.
 */
export function diskWriteMBps(folder: string, megabytes = 512): number {
  const file = join(folder, "disk-probe.bin");
  const block = Buffer.alloc(1024 * 1024, 0x61);
  const fd = openSync(file, "w");
  try {
    const started = performance.now();
    for (let i = 0; i < megabytes; i++) writeSync(fd, block);
    fsyncSync(fd);
    return megabytes / ((performance.now() - started) / 1000);
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

/** Sends `count` distinct GETs of `PATH` (`&i=1..count`) to `base`, `concurrency` at a time. */
export async function sendDistinct(base: string, count: number, concurrency = 32): Promise<void> {
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const i = next++;
      const response = await fetch(`${base}${PATH}&i=${i}`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`priming request ${i} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Records `count` distinct exchanges through `assopay record` into a cassette, then stops the recorder.
 * Unbounded: 100,000 exchanges of 2 KB make a cassette past the default bound (256 MiB).
 */
export async function recordCassette(
  ctx: BenchContext,
  upstream: string,
  cassette: string,
  count: number,
): Promise<void> {
  const recorder = await ctx.start(ctx.assopay(recordArgs(upstream, cassette)));
  await sendDistinct(recorder.url, count);
  await recorder.close();
}
