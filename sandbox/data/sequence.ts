import type { OrderRecord } from "./model.js";

/** A run of records (orders by default) with consecutive ids `firstId … firstId + count - 1`, made on demand. */
export interface Segment<T = OrderRecord> {
  firstId: number;
  count: number;
  at(index: number): T;
}

/** `Desc` (newest first) is the service's default order. */
export type Direction = "asc" | "desc";

/** Where a crawl starts: before every id, in either direction. */
export const START: Readonly<Record<Direction, number>> = { asc: 0, desc: 0xffffffff };

/** The records (orders by default) a listing crawls, ordered by id, without materialising them. */
export interface Sequence<T = OrderRecord> {
  readonly total: number;
  /** Up to `size` records strictly after `afterId` in `direction`. */
  page(afterId: number, direction: Direction, size: number): T[];
  /** The records at offset `offset` (first page = 0) from the start, for `pageIndex` without token. */
  slice(offset: number, direction: Direction, size: number): T[];
}

/** First index in [0, count) whose date is ≥ `ms` (dates grow with the index). */
function lowerBound(segment: Segment<OrderRecord>, ms: number): number {
  let lo = 0;
  let hi = segment.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (segment.at(mid).at.ms < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The part of a segment dated in [fromMs, toMs) (`to` is exclusive, as on the service). */
export function withinDates(
  segment: Segment<OrderRecord>,
  fromMs: number | undefined,
  toMs: number | undefined,
): Segment {
  const lo = fromMs === undefined ? 0 : lowerBound(segment, fromMs);
  const hi = toMs === undefined ? segment.count : lowerBound(segment, toMs);
  const count = Math.max(0, hi - lo);
  return { firstId: segment.firstId + lo, count, at: (index) => segment.at(lo + index) };
}

export function createSequence<T>(segments: readonly Segment<T>[]): Sequence<T> {
  const ordered = segments.filter((s) => s.count > 0).sort((a, b) => a.firstId - b.firstId);
  const total = ordered.reduce((sum, s) => sum + s.count, 0);

  const page = (afterId: number, direction: Direction, size: number): T[] => {
    const found: T[] = [];
    if (direction === "asc") {
      for (const segment of ordered) {
        let index = Math.max(0, afterId - segment.firstId + 1);
        while (index < segment.count && found.length < size) found.push(segment.at(index++));
        if (found.length >= size) break;
      }
    } else {
      for (let s = ordered.length - 1; s >= 0; s--) {
        const segment = ordered[s] as Segment<T>;
        let index = Math.min(segment.count, afterId - segment.firstId) - 1;
        while (index >= 0 && found.length < size) found.push(segment.at(index--));
        if (found.length >= size) break;
      }
    }
    return found;
  };

  const slice = (offset: number, direction: Direction, size: number): T[] => {
    let skip = offset;
    const walk = direction === "asc" ? ordered : [...ordered].reverse();
    for (const segment of walk) {
      if (skip >= segment.count) {
        skip -= segment.count;
        continue;
      }
      const firstIndex = direction === "asc" ? skip : segment.count - 1 - skip;
      const startAfter =
        direction === "asc" ? segment.firstId + firstIndex - 1 : segment.firstId + firstIndex + 1;
      return page(startAfter, direction, size);
    }
    return [];
  };

  return { total, page, slice };
}

/** A record of a short, in-memory listing: its place in the list (from 1) and what the entry shows. */
export interface Numbered<T> {
  id: number;
  value: T;
}

/** A short list (an organization's forms, the partner's organizations) as a sequence, ids 1 … n. */
export function listSequence<T>(values: readonly T[]): Sequence<Numbered<T>> {
  return createSequence([
    { firstId: 1, count: values.length, at: (index) => ({ id: index + 1, value: values[index] as T }) },
  ]);
}
