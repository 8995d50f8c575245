import { join } from "node:path";
import type { BenchContext } from "../lib/context.js";
import {
  BARE,
  BURST_CLIENTS,
  BURST_REQUESTS,
  bigBound,
  burst,
  CEILING,
  cassetteCaughtUp,
  catchUpNote,
  cpuSplit,
  diskWriteMBps,
  floorNotes,
  JOURNAL_FLOOR,
  LAG_TARGET_MS,
  overCeiling,
  PATH,
  peers,
  pipelineCostUs,
  recordArgs,
  startContenders,
} from "../lib/recording-parts.js";
import { cpuPerRequest, median, percent, type Section, whole } from "../lib/report.js";
import { alternate, answeredCleanly, find, type Medians, ratio } from "../lib/rounds.js";

/** Recording throughput: assopay record against a bare http-proxy and the recording peers, in one run. */
export async function recordingSuite(ctx: BenchContext): Promise<Section[]> {
  const { options } = ctx;
  const skipped: string[] = [];
  const upstream = await ctx.start(ctx.system("upstream", ["--size", "2048"]));
  const up = upstream.url;
  const record = join(ctx.scratch, "record.yaml");
  const contenders = await startContenders(ctx, skipped, [
    [BARE, ctx.system("bare-proxy", ["--upstream", up])],
    ["http-proxy (bare, no keep-alive)", ctx.system("bare-proxy", ["--upstream", up, "--no-keepalive"])],
    ["assopay record", ctx.assopay(recordArgs(up, record)), record],
    [CEILING, ctx.system("forwarder", ["--upstream", up])],
    [JOURNAL_FLOOR, ctx.system("forwarder", ["--upstream", up, "--journal", join(ctx.scratch, "floor")])],
    ...peers(ctx, up, "-rec"),
  ]);
  const round = { ...options, unique: true, log: ctx.log };
  ctx.log("recording, 2 KB bodies, 10 connections (every request new, so recorders record each one)");
  const at10 = await alternate(contenders, { ...round, connections: 10 });
  ctx.log("recording, 2 KB bodies, 50 connections");
  const pair = contenders.filter((c) => [BARE, CEILING, JOURNAL_FLOOR, "assopay record"].includes(c.name));
  const at50 = await alternate(pair, { ...round, connections: 50 });

  ctx.log("recording, 1 MB bodies, 10 connections");
  const bigUpstream = await ctx.start(ctx.system("upstream", ["--size", String(1024 * 1024)]));
  const bigBare = await ctx.start(ctx.system("bare-proxy", ["--upstream", bigUpstream.url]));
  const bigAssopay = await ctx.start(
    ctx.assopay(recordArgs(bigUpstream.url, join(ctx.scratch, "record-1mb.yaml"))),
  );
  const bigCeiling = await ctx.start(ctx.system("forwarder", ["--upstream", bigUpstream.url]));
  const bigJournal = join(ctx.scratch, "journal-only-1mb.yaml");
  const bigFloor = await ctx.start(
    ctx.system("forwarder", ["--upstream", bigUpstream.url, "--journal", bigJournal]),
  );
  const big = await alternate(
    [
      { name: BARE, url: `${bigBare.url}${PATH}`, pid: bigBare.pid },
      {
        name: "assopay record",
        url: `${bigAssopay.url}${PATH}`,
        pid: bigAssopay.pid,
        settle: () => cassetteCaughtUp(join(ctx.scratch, "record-1mb.yaml")),
      },
      { name: CEILING, url: `${bigCeiling.url}${PATH}`, pid: bigCeiling.pid },
      { name: JOURNAL_FLOOR, url: `${bigFloor.url}${PATH}`, pid: bigFloor.pid },
    ],
    { ...round, connections: 10, rounds: Math.max(2, Math.ceil(options.rounds / 2)) },
  );

  ctx.log(`lag: bursts of ${BURST_REQUESTS} × 2 KB from ${BURST_CLIENTS} clients, a fresh recorder each`);
  const lags: number[] = [];
  for (let n = 0; n < options.rounds; n++) {
    const cassette = join(ctx.scratch, `burst-${n}.yaml`);
    const recorder = await ctx.start(ctx.assopay(recordArgs(up, cassette, "once")));
    const measured = await burst(recorder.url, cassette);
    await recorder.close();
    lags.push(measured.lagMs);
    ctx.log(
      `  burst ${n + 1}: ${whole(measured.rps)} req/s, cassette complete ${whole(measured.lagMs)} ms after the burst`,
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
  const vs = (peer: string) => {
    const other = at10.find((m) => m.name.startsWith(peer));
    return answeredCleanly(other) ? ratio(ours10, other) : Number.NaN;
  };
  const row = (m: Medians, base: Medians | undefined, ceiling: Medians | undefined) => [
    m.name,
    String(m.connections),
    whole(m.rps),
    `${m.p50}`,
    `${m.p99}`,
    cpuPerRequest(m.cpuUs),
    m.name.startsWith(CEILING) ? "0" : cpuPerRequest(overCeiling(m, ceiling)),
    percent(ratio(m, base)),
    String(m.errors + m.non2xx),
  ];
  const pipelineRow = (size: string, us: number) => [
    `in-process pipeline (bench/systems/worker-pipeline.ts), ${size}`,
    "–",
    "–",
    "–",
    "–",
    cpuPerRequest(us),
    "–",
    "–",
    "–",
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
  const ceiling10 = find(at10, CEILING);
  const ceiling50 = find(at50, CEILING);
  const bigCeilingM = find(big, CEILING);
  const extra10 = overCeiling(ours10, ceiling10);
  const extra50 = overCeiling(ours50, ceiling50);
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
    ...[
      ["talkback", 10],
      ["mockttp", 3],
      ["WireMock", 3],
    ].map(([peer, times]) => {
      const r = vs(String(peer));
      return {
        target: `≥ ${times}× ${peer}'s recording`,
        measured: Number.isFinite(r) ? `${r.toFixed(1)}×` : "peer did not run or answered errors",
        met: Number.isFinite(r) ? r >= Number(times) : ("n/a" as const),
      };
    }),
    {
      target: "1 MB bodies: ≥ 50% of bare http-proxy",
      measured: `${percent(ratio(find(big, "assopay record"), find(big, BARE)))}; any recorder doing the floor's and the pipeline's work: at most ${percent(bigBound(big, pipeline1m)?.ofBare ?? Number.NaN)} here (notes)`,
      met: ratio(find(big, "assopay record"), find(big, BARE)) >= 0.5,
    },
  ];
  return [
    {
      title: "Recording",
      command: "npm run bench -- --only recording",
      table: {
        header,
        rows: [
          ...at10.map((m) => row(m, bare10, ceiling10)),
          ...at50.map((m) => row(m, bare50, ceiling50)),
          pipelineRow("2 KB", pipeline2k),
          ...big.map((m) => row({ ...m, name: `${m.name}, 1 MB` }, find(big, BARE), bigCeilingM)),
          pipelineRow("1 MB", pipeline1m),
        ],
      },
      targets,
      notes: [
        "Every request carries a unique `?i=N`, so each recorder records every exchange (talkback and WireMock would otherwise answer repeats from their tapes).",
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
