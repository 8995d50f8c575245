import { availableParallelism } from "node:os";
import { cpuUsage } from "node:process";
import { describe, expect, it } from "vitest";
import { machineBusy } from "../../bench/lib/rounds.js";

describe("the bench's reading of the whole machine's CPU (/proc/stat)", () => {
  it("counts at least the CPU this process spends meanwhile, and at most every core's whole time", () => {
    // The wall-clock spans both readings: on a loaded machine the process can wait a while between a
    // reading and the loop, and the whole machine keeps working meanwhile.
    const before = performance.now();
    const start = machineBusy();
    const own = cpuUsage();
    const began = performance.now();
    while (performance.now() - began < 300) Math.sqrt(Math.random());
    const spent = cpuUsage(own);
    const end = machineBusy();
    const wall = (performance.now() - before) / 1000;
    expect(start).toBeDefined();
    expect(end).toBeDefined();
    const busy = (end ?? 0) - (start ?? 0);
    // Both readings count in ticks of 10 ms: each may be a tick off on each core.
    expect(busy).toBeGreaterThanOrEqual((spent.user + spent.system) / 1e6 - 0.02);
    expect(busy).toBeLessThanOrEqual((wall + 0.04) * availableParallelism());
  });
});
