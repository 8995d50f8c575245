import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { BenchContext } from "../lib/context.js";
import {
  BARE,
  cassetteCaughtUp,
  recordArgs,
  type System,
  sendDistinct,
  startContenders,
} from "../lib/record.js";
import { cpuPerRequest, median, percent, type Section, whole } from "../lib/report.js";
import { alternate, find, type Medians, ratio } from "../lib/rounds.js";

/** assopay record's forwarding and capture, exchanges dropped: the most any recorder on its path can do. */
const CEILING = "ceiling: assopay forwarding, nothing written";
/** The floor for big bodies (bench/systems/forwarder.ts --journal): forwarding and the journal's one write. */
const JOURNAL_FLOOR = "floor: assopay forwarding and its journal, nothing else";
const NO_KEEPALIVE = "http-proxy (bare, no keep-alive)";
/** A burst for the lag: the 200-client load of issue 23, on a fresh recorder. */
const BURST_CLIENTS = 200;
const BURST_REQUESTS = 20_000;
/** The most the cassette may lag behind a burst's end (see docs/cassettes.md, the journal's bound). */
const LAG_TARGET_MS = 500;

/**
 * Recording throughput: assopay record against a bare http-proxy and its own forwarding (the ceiling, and
 * the floor: forwarding and the journal), in one run; its lag after a burst, and its pipeline alone.
 */
export async function recordingSuite(ctx: BenchContext): Promise<Section[]> {
  const { options } = ctx;
  const skipped: string[] = [];
  const up = (await ctx.start(ctx.system("upstream", ["--size", "2048"]))).url;
  /** Ours on `upstream`: the bare proxy, `extra`, assopay record, the ceiling and the floor. */
  const ours = (upstream: string, tag: string, extra: System[] = []): System[] => {
    const record = join(ctx.scratch, `record${tag}.yaml`);
    const journal = join(ctx.scratch, `journal-only${tag}.yaml`);
    return [
      [BARE, ctx.system("bare-proxy", ["--upstream", upstream])],
      ...extra,
      ["assopay record", ctx.assopay(recordArgs(upstream, record)), record],
      [CEILING, ctx.system("forwarder", ["--upstream", upstream])],
      [JOURNAL_FLOOR, ctx.system("forwarder", ["--upstream", upstream, "--journal", journal])],
    ];
  };
  const contenders = await startContenders(
    ctx,
    skipped,
    ours(up, "", [[NO_KEEPALIVE, ctx.system("bare-proxy", ["--upstream", up, "--no-keepalive"])]]),
  );
  const round = { ...options, unique: true, log: ctx.log };
  ctx.log("recording, 2 KB bodies, 10 connections (every request new, so recorders record each one)");
  const at10 = await alternate(contenders, { ...round, connections: 10 });
  ctx.log("recording, 2 KB bodies, 50 connections");
  const at50 = await alternate(
    contenders.filter((c) => c.name !== NO_KEEPALIVE),
    { ...round, connections: 50 },
  );

  ctx.log("recording, 1 MB bodies, 10 connections");
  const bigUp = (await ctx.start(ctx.system("upstream", ["--size", String(1024 * 1024)]))).url;
  const big = await alternate(await startContenders(ctx, skipped, ours(bigUp, "-1mb")), {
    ...round,
    connections: 10,
    rounds: Math.max(2, Math.ceil(options.rounds / 2)),
  });

  ctx.log(`lag: bursts of ${BURST_REQUESTS} × 2 KB from ${BURST_CLIENTS} clients, a fresh recorder each`);
  const lags: number[] = [];
  for (let n = 0; n < options.rounds; n++) {
    const cassette = join(ctx.scratch, `burst-${n}.yaml`);
    const recorder = await ctx.start(ctx.assopay(recordArgs(up, cassette)));
    const started = performance.now();
    await sendDistinct(recorder.url, BURST_REQUESTS, BURST_CLIENTS);
    const rps = (BURST_REQUESTS * 1000) / (performance.now() - started);
    lags.push(await cassetteCaughtUp(cassette));
    await recorder.close();
    ctx.log(
      `  burst ${n + 1}: ${whole(rps)} req/s, cassette complete ${whole(lags.at(-1) ?? Number.NaN)} ms after the burst`,
    );
  }
  const lag = median(lags);

  ctx.log("the recording worker's pipeline alone, in-process (bench/systems/worker-pipeline.ts)");
  const pipeline2k = await pipelineCostUs(ctx, 2048, 20_000);
  const pipeline1m = await pipelineCostUs(ctx, 1024 * 1024, 100);

  const disk = diskWriteMBps(ctx.scratch);
  const bigBareRate = find(big, BARE)?.rps ?? Number.NaN;
  ctx.log(`  disk: ${whole(disk)} MB/s sustained (fsync)`);

  const bare10 = find(at10, BARE);
  const ours10 = find(at10, "assopay record");
  const bare50 = find(at50, BARE);
  const ours50 = find(at50, "assopay record");
  /** The rows of one run's systems, each against the bare proxy and the ceiling of the same rounds. */
  const rows = (list: Medians[], suffix = "") =>
    list.map((m) => [
      `${m.name}${suffix}`,
      String(m.connections),
      whole(m.rps),
      `${m.p50}`,
      `${m.p99}`,
      cpuPerRequest(m.cpuUs),
      m.name === CEILING ? "0" : cpuPerRequest(overCeiling(m, find(list, CEILING))),
      percent(ratio(m, find(list, BARE))),
      String(m.errors + m.non2xx),
    ]);
  const pipelineRow = (size: string, us: number) => [
    `in-process pipeline (bench/systems/worker-pipeline.ts), ${size}`,
    ...["–", "–", "–", "–", cpuPerRequest(us), "–", "–", "–"],
  ];
  const header = [
    "system",
    "connections",
    "req/s (median)",
    "p50 ms",
    "p99 ms",
    "CPU µs/req",
    "CPU over the ceiling µs/req",
    "vs bare proxy",
    "errors",
  ];
  const extra10 = overCeiling(ours10, find(at10, CEILING));
  const extra50 = overCeiling(ours50, find(at50, CEILING));
  const againstPipeline = (extra: number) =>
    `${cpuPerRequest(extra)} µs over the ceiling, ${(extra / pipeline2k).toFixed(2)}× the pipeline's ${cpuPerRequest(pipeline2k)} µs`;
  const p99Ratio = (a?: Medians, b?: Medians) => (a && b && b.p99 > 0 ? a.p99 / b.p99 : Number.NaN);
  const targets = [
    {
      target: "recorder's extra CPU per 2 KB exchange ≤ 1.5× the in-process pipeline's (10 connections)",
      measured: againstPipeline(extra10),
      met: extra10 <= 1.5 * pipeline2k,
    },
    {
      target: "recorder's extra CPU per 2 KB exchange ≤ 1.5× the in-process pipeline's (50 connections)",
      measured: againstPipeline(extra50),
      met: extra50 <= 1.5 * pipeline2k,
    },
    {
      target: `cassette complete ≤ ${LAG_TARGET_MS} ms after a burst of ${whole(BURST_REQUESTS)} × 2 KB from ${BURST_CLIENTS} clients (issue 23)`,
      measured: `${whole(lag)} ms (median of ${lags.length})`,
      met: lag <= LAG_TARGET_MS,
    },
    {
      target: "≥ 70% of bare http-proxy at 10 connections (durable recording, issue 16)",
      measured: percent(ratio(ours10, bare10)),
      met: ratio(ours10, bare10) >= 0.7,
    },
    {
      target: "p99 within 1.5× of bare (10 conn.)",
      measured: `${p99Ratio(ours10, bare10).toFixed(2)}×`,
      met: p99Ratio(ours10, bare10) <= 1.5,
    },
    {
      target: "p99 within 1.5× of bare (50 conn.)",
      measured: `${p99Ratio(ours50, bare50).toFixed(2)}×`,
      met: p99Ratio(ours50, bare50) <= 1.5,
    },
    {
      target: "1 MB bodies: ≥ 50% of bare http-proxy",
      measured: `${percent(ratio(find(big, "assopay record"), find(big, BARE)))}; any recorder doing the floor's and the pipeline's work: at most ${percent(bigBound(big, pipeline1m)?.ofBare ?? Number.NaN)} here (notes)`,
      met: ratio(find(big, "assopay record"), find(big, BARE)) >= 0.5,
    },
  ];
  return [
    {
      title: "Recording",
      table: {
        header,
        rows: [
          ...rows(at10),
          ...rows(at50),
          pipelineRow("2 KB", pipeline2k),
          ...rows(big, ", 1 MB"),
          pipelineRow("1 MB", pipeline1m),
        ],
      },
      targets,
      notes: [
        "Every request carries a unique `?i=N`, as in the recorder decision's run (below), where assopay record is measured against the recording peers (talkback, mockttp, WireMock).",
        "CPU µs/req is the CPU time the system's own processes (all threads, and children) spent per request answered, from `/proc`, until it had finished the round's work (for assopay record: until its cassette held every exchange); the upstream and the load generator are not counted.",
        `"CPU over the ceiling" is a system's CPU µs/req minus that of "${CEILING}" in the same rounds: what recording adds to forwarding. The in-process pipeline rows are the recording worker's pipeline alone on the same body, in a process of its own with no network (bench/systems/worker-pipeline.ts, median of 3 rounds): what assopay record adds beyond it is transport (the journal, reading it back, messages, two threads' garbage collection).`,
        `The lag: ${options.rounds} burst(s) of ${whole(BURST_REQUESTS)} requests (2 KB bodies) from ${BURST_CLIENTS} keep-alive clients, each on a fresh assopay record; the time from the last response's end until the cassette held every exchange, median ${whole(lag)} ms (each: ${lags.map((l) => `${whole(l)} ms`).join(", ")}). Every exchange is in the journal meanwhile; the journal's bound (docs/cassettes.md) caps the lag.`,
        ...cpuSplit([bare10, find(at10, CEILING), ours10, bare50, find(at50, CEILING), ours50]),
        catchUpNote(ours10, ours50, find(big, "assopay record"), bare10, bare50),
        "assopay record runs with its defaults: secrets redacted, every exchange appended to the YAML cassette.",
        `"${CEILING}" is assopay record's own forwarder and body capture with each captured exchange dropped instead of written (bench/systems/forwarder.ts): no recorder that forwards this way can beat it here. In this run it reached ${percent(ratio(find(at10, CEILING), bare10))} of the bare proxy at 10 connections and ${percent(ratio(find(at50, CEILING), bare50))} at 50; what separates it from assopay record (${percent(ratio(ours10, find(at10, CEILING)))} of it at 10 connections) is the cost of writing the cassette.`,
        ...floorNotes({ at10, at50, big }, pipeline2k, pipeline1m),
        `The disk under the cassettes sustains ${whole(disk)} MB/s (512 MB written in 1 MB blocks, then fsync). A 1 MB exchange adds about 1 MB of cassette, so once the page cache is full any recorder of such bodies is held to about ${whole(disk)} exchanges/s here: ${percent(disk / bigBareRate)} of the bare proxy's 1 MB rate in this run.`,
        ...skipped,
      ],
    },
  ];
}

/** What the throughput rows leave out: how long assopay record took, after each round, to finish its cassette. */
function catchUpNote(...[at10, at50, big, bare10, bare50]: (Medians | undefined)[]): string {
  const ms = (m: Medians | undefined) =>
    m && Number.isFinite(m.settleMs) ? `${whole(m.settleMs)} ms` : "n/a";
  const kept = (m: Medians | undefined, bare: Medians | undefined) =>
    m && bare ? percent(m.sustainedRps / bare.rps) : "n/a";
  return `assopay record answers first and turns its journal into YAML with the CPU time the traffic leaves over, so its cassette lags behind a burst (every exchange is in the journal on disk meanwhile). After each of its rounds, the next round waited until the cassette held every exchange: median ${ms(at10)} at 10 connections, ${ms(at50)} at 50, ${ms(big)} with 1 MB bodies. Counting that time as part of the round, its rate was ${kept(at10, bare10)} of the bare proxy at 10 connections and ${kept(at50, bare50)} at 50.`;
}

/** What the floor shows: the one write alone, against the ceiling, the bare proxy and the pipeline's own cost. */
function floorNotes(
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
function bigBound(big: Medians[], pipeline1m: number) {
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
function cpuSplit(list: readonly (Medians | undefined)[]): string[] {
  return list.flatMap((m) =>
    m && Number.isFinite(m.mainCpuUs)
      ? [
          `${m.name} at ${m.connections} connections: ${m.mainCpuUs.toFixed(1)} µs/req on its main thread (the event loop), ${(m.cpuUs - m.mainCpuUs).toFixed(1)} µs/req on its other threads (V8's garbage-collection helpers, and for assopay record its recording worker).`,
        ]
      : [],
  );
}

/** CPU µs per exchange above the forwarding ceiling measured in the same rounds. */
function overCeiling(m: Medians | undefined, ceiling: Medians | undefined): number {
  return m && ceiling ? m.cpuUs - ceiling.cpuUs : Number.NaN;
}

/**
 * The recording worker's pipeline alone, in a process of its own (bench/systems/worker-pipeline.ts): the
 * median CPU time, in µs, to decode, redact, serialise and append one captured exchange with a `size`-byte
 * JSON body. What the recorder's extra CPU over the forwarding ceiling is compared with: the rest is transport.
 */
async function pipelineCostUs(ctx: BenchContext, size: number, count: number): Promise<number> {
  const spec = ctx.system("worker-pipeline", ["--size", String(size), "--count", String(count)]);
  const { perExchangeUs } = await ctx.figures<{ perExchangeUs: number[] }>(spec, "PIPELINE");
  return median(perExchangeUs);
}

/**
 * How fast the disk under `folder` takes sustained writes: `megabytes` written in 1 MB blocks and
 * flushed with fsync, in MB/s. Recording large bodies writes about as much cassette as it forwards, so
 * this bounds how many such exchanges per second any recorder can keep up with once the page cache is full.
 */
function diskWriteMBps(folder: string, megabytes = 512): number {
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
