import { cpuTime, machineBusy } from "./cpu.js";
import { type LoadResult, type LoadSpec, runLoad } from "./load.js";
import { median } from "./stats.js";

/** A system already running, measured in turn with the others. */
export interface Contender {
  name: string;
  url: string;
  /** Paths to request (default: the URL's own). */
  paths?: string[];
  /** The process serving it: its CPU time (threads and children included) is measured per request. */
  pid?: number;
  /**
   * After each of its rounds, waits until the system has finished that round's work (a recorder: its
   * cassette complete) and returns how long that took in ms; the next round starts after it.
   */
  settle?: () => Promise<number>;
}

export interface Medians {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  /**
   * CPU time the system under test spent per request, in µs (NaN when its process is not known), what it
   * spent until settled after the round included.
   */
  cpuUs: number;
  /** The part of it spent on the main thread (the event loop of a Node server). */
  mainCpuUs: number;
  /**
   * CPU time the whole machine spent per request, all cores and processes together: the system's own,
   * the load generator's, the upstream's and the kernel's (NaN where `/proc/stat` cannot tell).
   */
  machineCpuUs: number;
  /** Median ms after a round until the system had finished its work (NaN without `settle`). */
  settleMs: number;
  /** Requests per second counting that time too (the rate it keeps up for good); `rps` without `settle`. */
  sustainedRps: number;
  errors: number;
  non2xx: number;
  runs: number;
}

/**
 * A load run, with the CPU time its system under test spent per request (in all, on its main thread),
 * the time its `settle` took after the run included (a recorder's cassette is finished then: that work
 * belongs to the requests of the run).
 */
async function measured(spec: LoadSpec, contender: Contender): Promise<Measured> {
  const { pid, settle } = contender;
  const before = pid ? cpuTime(pid) : undefined;
  const busyBefore = machineBusy();
  const result = await runLoad(spec);
  const settleMs = settle ? await settle() : Number.NaN;
  const after = pid ? cpuTime(pid) : undefined;
  const busyAfter = machineBusy();
  const per = (seconds: number | undefined) =>
    seconds !== undefined && result.total > 0 ? (seconds * 1e6) / result.total : Number.NaN;
  return {
    ...result,
    settleMs,
    cpuUs: per(after && before && after.total - before.total),
    mainCpuUs: per(after && before && after.main - before.main),
    machineCpuUs: per(
      busyAfter !== undefined && busyBefore !== undefined ? busyAfter - busyBefore : undefined,
    ),
  };
}

type Measured = LoadResult & { cpuUs: number; mainCpuUs: number; machineCpuUs: number; settleMs: number };

export interface RoundOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  unique: boolean;
  log: (line: string) => void;
}

/** True when every response of every round was a 2xx: only then is its throughput a figure to compare. */
export function answeredCleanly(m: Medians | undefined): boolean {
  return m !== undefined && m.errors + m.non2xx === 0;
}

/**
 * Measures every contender `rounds` times in alternation, so drift of the machine hits all of them
 * alike, and returns the medians of each. Each round starts one place further along (A B C, B C A,
 * C A B …): no contender always runs first, or right after the same neighbour.
 */
export async function alternate(contenders: readonly Contender[], options: RoundOptions): Promise<Medians[]> {
  const runs = new Map<string, Measured[]>(contenders.map((c) => [c.name, []]));
  const spec = (c: Contender, durationSeconds: number): LoadSpec => ({
    url: c.url,
    connections: options.connections,
    durationSeconds,
    unique: options.unique,
    ...(c.paths ? { paths: c.paths } : {}),
  });
  for (const contender of contenders) {
    if (options.warmupSeconds > 0) await runLoad(spec(contender, options.warmupSeconds));
  }
  for (let round = 1; round <= options.rounds; round++) {
    const shift = (round - 1) % contenders.length;
    for (const contender of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
      const result = await measured(spec(contender, options.durationSeconds), contender);
      const { settleMs } = result;
      runs.get(contender.name)?.push(result);
      options.log(
        `  round ${round}/${options.rounds} ${contender.name.padEnd(28)} c=${options.connections} ${Math.round(result.rps)} req/s p99 ${result.p99} ms${Number.isFinite(result.cpuUs) ? ` cpu ${result.cpuUs.toFixed(1)} µs/req` : ""}${Number.isFinite(settleMs) ? `, complete ${Math.round(settleMs)} ms later` : ""}${result.errors + result.non2xx > 0 ? ` (${result.errors} errors, ${result.non2xx} non-2xx)` : ""}`,
      );
    }
  }
  return contenders.map((c) => {
    const list = runs.get(c.name) ?? [];
    return {
      name: c.name,
      connections: options.connections,
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      cpuUs: median(list.map((r) => r.cpuUs)),
      mainCpuUs: median(list.map((r) => r.mainCpuUs)),
      machineCpuUs: median(list.map((r) => r.machineCpuUs)),
      settleMs: median(list.map((r) => r.settleMs)),
      sustainedRps: median(
        list.map((r) =>
          Number.isFinite(r.settleMs)
            ? (r.rps * options.durationSeconds) / (options.durationSeconds + r.settleMs / 1000)
            : r.rps,
        ),
      ),
      errors: list.reduce((sum, r) => sum + r.errors, 0),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
      runs: list.length,
    };
  });
}
