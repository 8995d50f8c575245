import { availableParallelism } from "node:os";
import { cpuUsage } from "node:process";
import { describe, expect, it } from "vitest";
import { machineBusy } from "../../bench/lib/cpu.js";

describe("the bench's reading of the whole machine's CPU (/proc/stat)", () => {
  it("counts at least the CPU this process spends meanwhile, and at most every core's whole time", () => {
    const start = machineBusy();
    const own = cpuUsage();
    const began = performance.now();
    while (performance.now() - began < 300) Math.sqrt(Math.random());
    const spent = cpuUsage(own);
    const wall = (performance.now() - began) / 1000;
    const end = machineBusy();
    expect(start).toBeDefined();
    expect(end).toBeDefined();
    const busy = (end ?? 0) - (start ?? 0);
    // Both readings count in ticks of 10 ms: a tick of slack on each side.
    expect(busy).toBeGreaterThanOrEqual((spent.user + spent.system) / 1e6 - 0.02);
    expect(busy).toBeLessThanOrEqual(wall * availableParallelism() + 0.02);
  });
});
