import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of `/proc/PID/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function ownTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
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

/**
 * CPU seconds used so far by a process, all its threads and all its descendants (Prism and WireMock run
 * their server in a child of the script the bench starts). Undefined where `/proc` cannot tell (not
 * Linux, or the process is gone).
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    let ticks = 0;
    const pending = [pid];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      ticks += ownTicks(next);
      pending.push(...children(next));
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
