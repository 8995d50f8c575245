import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../sandbox/data/model.js";
import { createDatedSequence, type Direction, type Segment, START } from "../../sandbox/data/sequence.js";

/** A segment of orders `firstId …` dated `days` (days since 2025-01-01, growing with the index). */
function segment(firstId: number, days: readonly number[]): Segment<OrderRecord> {
  const at = (index: number) =>
    ({
      id: firstId + index,
      at: { ms: Date.UTC(2025, 0, 1 + (days[index] as number)), ticks: 0 },
    }) as OrderRecord;
  return { firstId, count: days.length, at };
}

// Two forms whose dates interleave, an order declared on its own, an order taken since.
const segments = [segment(10, [0, 2, 4, 6, 8]), segment(20, [1, 2, 7]), segment(500, [3]), segment(900, [9])];
// Days 0 1 2 2 3 4 6 7 8 9: 11 and 21 share day 2, and go by id.
const byDate = [10, 20, 11, 21, 500, 12, 13, 22, 14, 900];

function crawl(direction: Direction, size: number): number[] {
  const sequence = createDatedSequence(segments);
  const ids: number[] = [];
  for (let after = START[direction]; ; ) {
    const page = sequence.page(after, direction, size);
    if (page.length === 0) return ids;
    ids.push(...page.map((r) => r.id));
    after = page.at(-1)?.id as number;
  }
}

describe("a dated sequence: listings in date order, however ids and dates interleave", () => {
  it("serves every order once, by date then id, at every page size and in both directions", () => {
    for (const size of [1, 2, 3, 100]) {
      expect(crawl("asc", size)).toEqual(byDate);
      expect(crawl("desc", size)).toEqual([...byDate].reverse());
    }
  });

  it("finds a cursor's place from its record, answers pageIndex slices the same way, and counts all", () => {
    const sequence = createDatedSequence(segments);
    expect(sequence.total).toBe(10);
    expect(sequence.page(11, "asc", 3).map((r) => r.id)).toEqual([21, 500, 12]);
    expect(sequence.page(11, "desc", 3).map((r) => r.id)).toEqual([20, 10]);
    expect(sequence.slice(3, "asc", 3).map((r) => r.id)).toEqual([21, 500, 12]);
    expect(sequence.slice(0, "desc", 2).map((r) => r.id)).toEqual([900, 14]);
    // An id no listing holds has no place: the listing ends there.
    expect(sequence.page(77, "asc", 3)).toEqual([]);
  });
});
