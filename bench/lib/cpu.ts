import { readdirSync, readFileSync } from "node:fs";

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
