import { describe, expect, it } from "vitest";
import { caughtUpEnough, LAG_HIGH, LAG_LOW, overBound } from "../../proxy/record/worker-host.js";

const MiB = 1024 * 1024;

describe("how far the cassette may fall behind the traffic (the lag bound of proxy/record/worker-host.ts)", () => {
  it("holds new requests once the count passes its high mark, or the journal reaches 16 MiB", () => {
    expect(overBound({ exchanges: 4097, journalBytes: 0 })).toBe(true);
    expect(overBound({ exchanges: 1, journalBytes: 16 * MiB })).toBe(true);
    expect(overBound({ exchanges: 0, journalBytes: 16 * MiB })).toBe(true);
    expect(overBound({ exchanges: 100_000, journalBytes: 10 * 1024 * MiB })).toBe(true);
    // A request held at the count's high mark waits until the count is under the low mark, not just
    // under the high one: between the two it is still held.
    expect(caughtUpEnough({ exchanges: 4000, journalBytes: 0 })).toBe(false);
    expect(caughtUpEnough({ exchanges: 3073, journalBytes: 0 })).toBe(false);
    // A journal past its mark holds them until it is emptied: converting all of it is not enough.
    expect(caughtUpEnough({ exchanges: 0, journalBytes: 16 * MiB })).toBe(false);
    expect(caughtUpEnough({ exchanges: 0, journalBytes: 40 * MiB })).toBe(false);
  });

  it("lets every lag under the marks through: many small exchanges, a few big ones, none", () => {
    for (const lag of [
      { exchanges: 0, journalBytes: 0 },
      { exchanges: 4096, journalBytes: 4096 * 2048 },
      { exchanges: 15, journalBytes: 16 * MiB - 1 },
      { exchanges: 4096, journalBytes: 16 * MiB - 1 },
    ]) {
      expect(overBound(lag), JSON.stringify(lag)).toBe(false);
    }
    expect(caughtUpEnough({ exchanges: 3072, journalBytes: 16 * MiB - 1 })).toBe(true);
    expect(caughtUpEnough({ exchanges: 0, journalBytes: 0 })).toBe(true);
    // The count's low mark is below its high one, so a lag cannot be both held and released.
    expect(LAG_LOW.exchanges).toBeLessThan(LAG_HIGH.exchanges);
  });
});
