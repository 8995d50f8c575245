import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { median } from "./report.js";

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

/** What one load run measured (autocannon's figures), and what its system spent per request. */
interface Measured {
  rps: number;
  /** Requests answered in the run. */
  total: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
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
  /** Ms after the round until the system had finished its work (NaN without `settle`). */
  settleMs: number;
  /** Requests per second counting that time too (the rate it keeps up for good); `rps` without `settle`. */
  sustainedRps: number;
}

/** The figures of a contender's runs taken as medians, but for `errors` and `non2xx`: their sums. */
export interface Medians extends Omit<Measured, "total"> {
  name: string;
  connections: number;
}

const MEDIAN_OF = [
  "rps",
  "p50",
  "p99",
  "cpuUs",
  "mainCpuUs",
  "machineCpuUs",
  "settleMs",
  "sustainedRps",
] as const;

export interface RoundOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  /** Make every request unique (`?i=N`), so recorders record each one instead of replaying a tape. */
  unique: boolean;
  log: (line: string) => void;
}

/** True when every response of every round was a 2xx: only then is its throughput a figure to compare. */
export function answeredCleanly(m: Medians | undefined): boolean {
  return m !== undefined && m.errors + m.non2xx === 0;
}

export const find = (list: readonly Medians[], name: string) => list.find((m) => m.name === name);

/** `a`'s rate over `b`'s (NaN where either is missing). */
export const ratio = (a: Medians | undefined, b: Medians | undefined) =>
  a && b ? a.rps / b.rps : Number.NaN;

/**
 * A load run on `c`, with the CPU time its system under test spent per request (in all, on its main
 * thread), the time its `settle` took after the run included (a recorder's cassette is finished then:
 * that work belongs to the requests of the run).
 */
async function measured(c: Contender, options: RoundOptions): Promise<Measured> {
  const before = c.pid ? cpuTime(c.pid) : undefined;
  const busyBefore = machineBusy();
  const result = await runLoad(c, options, options.durationSeconds);
  const settleMs = c.settle ? await c.settle() : Number.NaN;
  const after = c.pid ? cpuTime(c.pid) : undefined;
  const busyAfter = machineBusy();
  const per = (seconds: number | undefined) =>
    seconds !== undefined && result.total > 0 ? (seconds * 1e6) / result.total : Number.NaN;
  const seconds = options.durationSeconds;
  return {
    ...result,
    settleMs,
    sustainedRps: Number.isFinite(settleMs)
      ? (result.rps * seconds) / (seconds + settleMs / 1000)
      : result.rps,
    cpuUs: per(after && before && after.total - before.total),
    mainCpuUs: per(after && before && after.main - before.main),
    machineCpuUs: per(
      busyAfter !== undefined && busyBefore !== undefined ? busyAfter - busyBefore : undefined,
    ),
  };
}

/**
 * Measures every contender `rounds` times in alternation, so drift of the machine hits all of them
 * alike, and returns the medians of each. Each round starts one place further along (A B C, B C A,
 * C A B …): no contender always runs first, or right after the same neighbour.
 */
export async function alternate(contenders: readonly Contender[], options: RoundOptions): Promise<Medians[]> {
  const runs = new Map<string, Measured[]>(contenders.map((c) => [c.name, []]));
  for (const contender of contenders) {
    if (options.warmupSeconds > 0) await runLoad(contender, options, options.warmupSeconds);
  }
  for (let round = 1; round <= options.rounds; round++) {
    const shift = (round - 1) % contenders.length;
    for (const contender of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
      const result = await measured(contender, options);
      const { settleMs } = result;
      runs.get(contender.name)?.push(result);
      options.log(
        `  round ${round}/${options.rounds} ${contender.name.padEnd(28)} c=${options.connections} ${Math.round(result.rps)} req/s p99 ${result.p99} ms${Number.isFinite(result.cpuUs) ? ` cpu ${result.cpuUs.toFixed(1)} µs/req` : ""}${Number.isFinite(settleMs) ? `, complete ${Math.round(settleMs)} ms later` : ""}${result.errors + result.non2xx > 0 ? ` (${result.errors} errors, ${result.non2xx} non-2xx)` : ""}`,
      );
    }
  }
  return contenders.map((c) => {
    const list = runs.get(c.name) ?? [];
    const medians = MEDIAN_OF.map((key) => [key, median(list.map((r) => r[key]))]);
    return {
      ...(Object.fromEntries(medians) as Record<(typeof MEDIAN_OF)[number], number>),
      name: c.name,
      connections: options.connections,
      errors: list.reduce((sum, r) => sum + r.errors, 0),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    };
  });
}

const require = createRequire(new URL("../package.json", import.meta.url));

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => void;

/** Runs autocannon (keep-alive, the round's connections) on a contender for `seconds`; returns its figures. */
function runLoad(
  c: Contender,
  options: RoundOptions,
  seconds: number,
): Promise<Pick<Measured, "rps" | "total" | "p50" | "p99" | "errors" | "non2xx">> {
  const autocannon = require("autocannon") as Autocannon;
  const base = new URL(c.url);
  const paths = c.paths ?? [`${base.pathname}${base.search}`];
  let counter = 0;
  const requests = paths.map((path) => ({
    method: "GET",
    path,
    ...(options.unique
      ? {
          setupRequest: (request: { path: string }) => {
            counter += 1;
            return { ...request, path: `${path}${path.includes("?") ? "&" : "?"}i=${counter}` };
          },
        }
      : {}),
  }));
  return new Promise((resolve, reject) => {
    autocannon(
      { url: c.url, connections: options.connections, duration: seconds, pipelining: 1, requests },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          rps: result.requests.average,
          total: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
        });
      },
    );
  });
}

/** Clock ticks per second of `/proc/PID/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function ticks(statFile: string): number {
  const stat = readFileSync(statFile, "utf8");
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const listed = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (listed) out.push(...listed.split(" ").map(Number));
  }
  return out;
}

/** CPU seconds a process has used so far: in all, and on its main thread alone. */
export interface CpuTime {
  /** The process, all its threads and all its descendants (Prism and WireMock serve from a child). */
  total: number;
  /** The process's main thread alone (for Node: the event loop, without workers and GC helpers). */
  main: number;
}

/** CPU time used so far by a process; undefined where `/proc` cannot tell (not Linux, process gone). */
export function cpuTime(pid: number): CpuTime | undefined {
  try {
    let total = 0;
    const pending = [pid];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      total += ticks(`/proc/${next}/stat`);
      pending.push(...children(next));
    }
    return {
      total: total / TICKS_PER_SECOND,
      main: ticks(`/proc/${pid}/task/${pid}/stat`) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds the whole machine has been busy so far, all cores together (the first line of
 * `/proc/stat`: everything but idle and iowait); undefined where `/proc` cannot tell.
 */
export function machineBusy(): number | undefined {
  try {
    const first = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
    const [label, ...fields] = first.split(/\s+/);
    if (label !== "cpu") return undefined;
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields.map(Number);
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
