import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, ChildSpec } from "../lib/context.js";
import {
  type Loaded,
  loaded,
  PATH,
  peerFile,
  recordCassette,
  sendDistinct,
  wiremock,
} from "../lib/record.js";
import { cpuPerRequest, percent, type Section, whole } from "../lib/report.js";
import { alternate, answeredCleanly, type Contender, type Medians, ratio } from "../lib/rounds.js";
import { jsonBody } from "../systems/body.js";
import { randomPort } from "../systems/listen.js";

const PATHS = Array.from({ length: 10 }, (_, i) => `${PATH}&i=${i + 1}`);
/** The 100,000-interaction replay again, its node started with `--single-threaded-gc`. */
const SINGLE_THREADED = "node --single-threaded-gc: assopay replay (100,000)";
/** Cassette sizes replayed: CPU per request should not grow with them. */
const SIZES = [10, 10_000, 100_000] as const;

/** How long a replay may take to load its cassette before the bench gives up on it (100,000 interactions). */
const LOAD_TIMEOUT_MS = 300_000;

/**
 * What starting a replay of each cassette took, each in a process of its own (`startReplay` of the built
 * package, as the CLI calls it): how long loading and indexing took, and the memory kept once it listens.
 */
function loadingSection(loading: readonly Loaded[]): Section {
  return {
    title: "Replay: loading the cassette",
    table: {
      header: ["interactions", "load and index", "heap after load", "buffers after load", "RSS after load"],
      rows: loading.map((l) => [
        whole(l.interactions),
        `${whole(l.ms)} ms`,
        `${l.heapMb} MB`,
        `${l.externalMb} MB`,
        `${whole(l.rssMb)} MB`,
      ]),
    },
    notes: [
      "The cassettes of the replay rows above (2 KB JSON bodies, recorded through `assopay record`), each started once by `startReplay` in a process of its own: the time until it listens, then the memory it keeps. `startReplay` collects garbage before it listens, so the heap is what the index keeps; the response bodies are held as bytes outside the heap (buffers); RSS still counts what loading took at its peak and has not been given back to the system.",
    ],
  };
}

/** Prism's mock server on a one-route OpenAPI document, written to `file`, whose example is the bench body. */
function prism(file: string): ChildSpec {
  const example = JSON.parse(jsonBody(2048).toString()) as unknown;
  const spec = {
    openapi: "3.0.1",
    info: { title: "bench", version: "1" },
    paths: {
      "/v5/organizations/bench/items": {
        get: {
          parameters: [
            { name: "pageSize", in: "query", schema: { type: "integer" } },
            { name: "i", in: "query", schema: { type: "integer" } },
          ],
          responses: { "200": { description: "ok", content: { "application/json": { example } } } },
        },
      },
    },
  };
  writeFileSync(file, JSON.stringify(spec));
  const port = randomPort();
  return {
    command: process.execPath,
    args: [
      ...[peerFile("@stoplight/prism-cli", "dist", "index.js"), "mock", file, "--port", String(port)],
      ...["--host", "127.0.0.1", "--errors", "false"],
    ],
    url: `http://127.0.0.1:${port}`,
    urlPattern: /Prism is listening/,
    startTimeoutMs: 90_000,
  };
}

/** Replay throughput: assopay replay against a plain node:http server and the replay peers, in one run. */
export async function replaySuite(ctx: BenchContext): Promise<Section[]> {
  const skipped: string[] = [];
  const upstream = await ctx.start(ctx.system("upstream", ["--size", "2048"]));
  ctx.log("replay: preparing cassettes (10, 10,000 and 100,000 interactions), tapes and stubs");
  const cassettes = new Map<number, string>();
  for (const count of SIZES) {
    const file = join(ctx.scratch, `replay-${count}.yaml`);
    await recordCassette(ctx, upstream.url, file, count);
    cassettes.set(count, file);
  }
  const loading: Loaded[] = [];
  for (const [count, file] of cassettes) {
    ctx.log(`replay: loading ${whole(count)} interactions`);
    loading.push(await loaded(ctx, file, true));
    ctx.log(`  ${whole(count)}: ${whole(loading.at(-1)?.ms ?? Number.NaN)} ms`);
  }
  const contenders: Contender[] = [
    { name: "node:http (fixed body)", url: upstream.url, paths: PATHS, pid: upstream.pid },
  ];
  /** Starts a contender; a peer that serves what it recorded is first run by `record` on 10 requests. */
  const add = async (name: string, play: ChildSpec, record?: ChildSpec) => {
    try {
      if (record) {
        const recorder = await ctx.start(record);
        await sendDistinct(recorder.url, 10, 1);
        await recorder.close();
      }
      const child = await ctx.start(play);
      contenders.push({ name, url: child.url, paths: PATHS, pid: child.pid });
    } catch (error) {
      skipped.push(`${name} could not run here: ${(error as Error).message.split("\n")[0]}`);
    }
  };
  const replay = (file: string): ChildSpec => ({
    ...ctx.assopay(["replay", "--cassette", file, "--port", "0", "--quiet"]),
    startTimeoutMs: LOAD_TIMEOUT_MS,
  });
  for (const [count, file] of cassettes) await add(`assopay replay (${whole(count)})`, replay(file));
  const largest = cassettes.get(100_000);
  if (largest) {
    // Not a target: the figure for deciding whether replay should run its server with this V8 flag
    // (bench/history/performance-log.md, 2026-11-24). Node refuses it in NODE_OPTIONS, so it is given here.
    const { args, ...spec } = replay(largest);
    await add(SINGLE_THREADED, { ...spec, args: ["--single-threaded-gc", ...args] });
  }
  const tapes = join(ctx.scratch, "talkback-tapes");
  const talkback = (mode: string) =>
    ctx.system("talkback", ["--mode", mode, "--upstream", upstream.url, "--tapes", tapes]);
  await add("talkback 4.2 (playback)", talkback("playback"), talkback("record"));
  const stubs = join(ctx.scratch, "wiremock-stubs");
  await add("WireMock 3.13 (stubs)", wiremock(stubs), wiremock(stubs, upstream.url));
  await add("Prism 5.14 (mock)", prism(join(ctx.scratch, "prism.json")));
  ctx.log("replay, 2 KB bodies, 10 connections");
  const results = await alternate(contenders, {
    ...ctx.options,
    connections: 10,
    unique: false,
    log: ctx.log,
  });
  const find = (name: string) => results.find((m) => m.name.startsWith(name));
  const plain = find("node:http");
  const ours = find("assopay replay (10)");
  const oursLarge = find("assopay replay (10,000)");
  const oursLargest = find("assopay replay (100,000)");
  const cpuAgainstTen = (m: Medians | undefined, most: number, count: string) => {
    const r = m && ours ? m.cpuUs / ours.cpuUs : Number.NaN;
    return {
      target: `CPU per request with ${count} interactions within ${Math.round((most - 1) * 100)}% of that with 10 (≤ ${most.toFixed(2)}×)`,
      measured: Number.isFinite(r) ? `${r.toFixed(2)}×` : "n/a",
      met: Number.isFinite(r) ? r <= most : ("n/a" as const),
    };
  };
  const ahead = (peer: string) => {
    const other = find(peer);
    if (!answeredCleanly(other)) {
      const why = other
        ? `peer answered ${other.errors + other.non2xx} errors or non-2xx`
        : "peer did not run";
      return { target: `ahead of ${peer}`, measured: why, met: "n/a" as const };
    }
    const r = ratio(ours, other);
    return { target: `ahead of ${peer}`, measured: `${r.toFixed(2)}×`, met: r > 1 };
  };
  return [
    {
      title: "Replay",
      table: {
        header: ["system", "req/s (median)", "p50 ms", "p99 ms", "CPU µs/req", "vs node:http", "errors"],
        rows: results.map((m) => [
          m.name,
          whole(m.rps),
          `${m.p50}`,
          `${m.p99}`,
          cpuPerRequest(m.cpuUs),
          percent(ratio(m, plain)),
          String(m.errors + m.non2xx),
        ]),
      },
      targets: [
        {
          target: "≥ 80% of a plain node:http server",
          measured: percent(ratio(ours, plain)),
          met: ratio(ours, plain) >= 0.8,
        },
        ahead("talkback"),
        ahead("WireMock"),
        ahead("Prism"),
        {
          target: "no drop from 10 to 10,000 interactions (≥ 95%)",
          measured: percent(ratio(oursLarge, ours)),
          met: ratio(oursLarge, ours) >= 0.95,
        },
        cpuAgainstTen(oursLarge, 1.05, "10,000"),
        cpuAgainstTen(oursLargest, 1.1, "100,000"),
      ],
      notes: [
        "Every system answers the same ten requests (`?i=1..10`) with the same 2 KB JSON body.",
        "CPU µs/req is the CPU time the system's own processes (all threads, and children) spent per request answered, from `/proc`; the load generator is not counted. It moves far less with the machine's drift than req/s, so it is the steadier measure of what a larger cassette costs per request.",
        `"${SINGLE_THREADED}" is the same replay with V8's collector confined to the main thread: with the default collector, CPU per request grew with the cassette's heap (bench/history/performance-log.md, 2026-11-24); it is measured here, not a target.`,
        ...skipped,
      ],
    },
    loadingSection(loading),
  ];
}
