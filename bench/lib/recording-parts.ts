// The recording suite's parts (bench/suites/recording.ts): the systems' names and arguments, and the
// figures and notes computed from its medians.
import { availableParallelism } from "node:os";
import { cassetteCaughtUp, NO_CASSETTE_BOUND } from "./catch-up.js";
import type { BenchContext } from "./context.js";
import type { Contender, Medians } from "./rounds.js";
import { cpuPerRequest, percent, whole } from "./stats.js";

export const PATH = "/v5/organizations/bench/items?pageSize=20";
/** assopay record's forwarding and capture, exchanges dropped: the most any recorder on its path can do. */
export const CEILING = "ceiling: assopay forwarding, nothing written";
/** The floor for big bodies (bench/systems/journal-only.ts): forwarding and the journal's one write. */
export const JOURNAL_FLOOR = "floor: assopay forwarding and its journal, nothing else";

export async function tryStart(
  ctx: BenchContext,
  name: string,
  start: () => Promise<{ url: string; pid: number }>,
  skipped: string[],
  cassette?: string,
) {
  try {
    const child = await start();
    const contender: Contender = {
      name,
      url: `${child.url}${PATH}`,
      pid: child.pid,
      ...(cassette === undefined ? {} : { settle: () => cassetteCaughtUp(cassette) }),
    };
    return contender;
  } catch (error) {
    skipped.push(`${name} could not run here: ${(error as Error).message.split("\n")[0]}`);
    ctx.log(`  ${name}: skipped (${(error as Error).message.split("\n")[0]})`);
    return undefined;
  }
}

export const find = (list: Medians[], name: string) => list.find((m) => m.name === name);

/** What the throughput rows leave out: how long assopay record took, after each round, to finish its cassette. */
export function catchUpNote(...[at10, at50, big, bare10, bare50]: (Medians | undefined)[]): string {
  const ms = (m: Medians | undefined) =>
    m && Number.isFinite(m.settleMs) ? `${whole(m.settleMs)} ms` : "n/a";
  const kept = (m: Medians | undefined, bare: Medians | undefined) =>
    m && bare ? percent(m.sustainedRps / bare.rps) : "n/a";
  return `assopay record answers first and turns its journal into YAML with the CPU time the traffic leaves over, so its cassette lags behind a burst (every exchange is in the journal on disk meanwhile). After each of its rounds, the next round waited until the cassette held every exchange: median ${ms(at10)} at 10 connections, ${ms(at50)} at 50, ${ms(big)} with 1 MB bodies. Counting that time as part of the round, its rate was ${kept(at10, bare10)} of the bare proxy at 10 connections and ${kept(at50, bare50)} at 50.`;
}
export const ratio = (a: Medians | undefined, b: Medians | undefined) =>
  a && b ? a.rps / b.rps : Number.NaN;

/** What the floor shows: the one write alone, against the ceiling, the bare proxy and the pipeline's own cost. */
export function floorNotes(
  runs: { at10: Medians[]; at50: Medians[]; big: Medians[] },
  pipeline2k: number,
  pipeline1m: number,
): string[] {
  const floor = find(runs.big, JOURNAL_FLOOR);
  const over = (list: Medians[]) =>
    cpuPerRequest(overCeiling(find(list, JOURNAL_FLOOR), find(list, CEILING)));
  const what = `"${JOURNAL_FLOOR}" (bench/systems/journal-only.ts) is the ceiling's forwarder with each exchange appended to the journal, the one write the durability rule asks for before the response ends, and nothing else: no scan, no YAML, no second write, no worker.`;
  const small = `With 2 KB bodies that write took ${over(runs.at10)} µs over the ceiling at 10 connections and ${over(runs.at50)} at 50; the 2 KB target (1.5× the pipeline's ${cpuPerRequest(pipeline2k)} µs) leaves ${cpuPerRequest(pipeline2k / 2)} µs for everything besides the pipeline, the journal's write, its reading back and the messages included.`;
  if (!floor) return [what, small];
  const bare = find(runs.big, "http-proxy (bare, keep-alive)");
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
  const bare = find(big, "http-proxy (bare, keep-alive)");
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
