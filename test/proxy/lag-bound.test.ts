import { describe, expect, it } from "vitest";
import { caughtUpEnough, LAG_HIGH, LAG_LOW, overBound } from "../../proxy/record/lag-bound.js";

const MB = 1024 * 1024;

describe("how far the cassette may fall behind the traffic (proxy/record/lag-bound.ts)", () => {
  it("holds new requests once either count passes its high mark", () => {
    expect(overBound({ exchanges: 4097, bytes: 0 })).toBe(true);
    expect(overBound({ exchanges: 1, bytes: 64 * MB + 1 })).toBe(true);
    expect(overBound({ exchanges: 100_000, bytes: 10 * 1024 * MB })).toBe(true);
    // A request held at the high mark waits until the worker is under both low marks, not just under
    // the high one: between the two it is still held.
    expect(caughtUpEnough({ exchanges: 4000, bytes: 0 })).toBe(false);
    expect(caughtUpEnough({ exchanges: 10, bytes: 60 * MB })).toBe(false);
    expect(caughtUpEnough({ exchanges: 3073, bytes: 48 * MB })).toBe(false);
  });

  it("lets every lag up to the marks through: many small exchanges, a few big ones, none", () => {
    for (const lag of [
      { exchanges: 0, bytes: 0 },
      { exchanges: 4096, bytes: 4096 * 2048 },
      { exchanges: 64, bytes: 64 * MB },
      { exchanges: 4096, bytes: 64 * MB },
    ]) {
      expect(overBound(lag), JSON.stringify(lag)).toBe(false);
    }
    expect(caughtUpEnough({ exchanges: 3072, bytes: 48 * MB })).toBe(true);
    expect(caughtUpEnough({ exchanges: 0, bytes: 0 })).toBe(true);
    // The low mark is below the high one on both counts, so a lag cannot be both held and released.
    expect(LAG_LOW.exchanges).toBeLessThan(LAG_HIGH.exchanges);
    expect(LAG_LOW.bytes).toBeLessThan(LAG_HIGH.bytes);
  });
});
