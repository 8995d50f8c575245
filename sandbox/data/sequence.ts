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

/** The date a listing sorts and filters a record by, in milliseconds: the order's, or its payment's. */
export type DateOf = (record: OrderRecord) => number;

/** The order's date: the orders and items listings. */
export const orderDate: DateOf = (record) => record.at.ms;

/** The date of the order's (first) payment, which its entry shows: the payments listings. */
export const paymentDate: DateOf = (record) => record.payments[0]?.at.ms ?? record.at.ms;

/** The first index in [0, count) where `holds` (false before it, true from it on), else `count`. */
function firstWhere(count: number, holds: (index: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** First index of a segment whose date is ≥ `ms` (dates grow with the index). */
const lowerBound = (segment: Segment<OrderRecord>, ms: number, dateOf: DateOf) =>
  firstWhere(segment.count, (index) => dateOf(segment.at(index)) >= ms);

/** The part of a segment dated in [fromMs, toMs) (`to` is exclusive, as on the service). */
export function withinDates(
  segment: Segment<OrderRecord>,
  fromMs: number | undefined,
  toMs: number | undefined,
  dateOf: DateOf = orderDate,
): Segment {
  const lo = fromMs === undefined ? 0 : lowerBound(segment, fromMs, dateOf);
  const hi = toMs === undefined ? segment.count : lowerBound(segment, toMs, dateOf);
  const count = Math.max(0, hi - lo);
  return { firstId: segment.firstId + lo, count, at: (index) => segment.at(lo + index) };
}

/** One segment as a sequence: its ids are its order. */
function segmentSequence<T>(segment: Segment<T> | undefined): Sequence<T> {
  const { firstId = 0, count = 0 } = segment ?? {};
  const page = (afterId: number, direction: Direction, size: number): T[] => {
    const found: T[] = [];
    const step = direction === "asc" ? 1 : -1;
    let index =
      direction === "asc" ? Math.max(0, afterId - firstId + 1) : Math.min(count, afterId - firstId) - 1;
    for (; segment && index >= 0 && index < count && found.length < size; index += step)
      found.push(segment.at(index));
    return found;
  };
  const slice = (offset: number, direction: Direction, size: number): T[] =>
    offset >= count
      ? []
      : page(direction === "asc" ? firstId + offset - 1 : firstId + count - offset, direction, size);
  return { total: count, page, slice };
}

/** A record's place in a dated listing: its date, then its id for records of the same date. */
interface Place {
  readonly ms: number;
  readonly id: number;
}

const before = (a: Place, b: Place) => a.ms < b.ms || (a.ms === b.ms && a.id < b.id);

/**
 * The orders a listing crawls in date order (then id), as the service sorts them, however the segments'
 * ids and dates interleave (an organization's forms, orders made since, an integrator's declared ones).
 * Each segment is dated in the order of its ids. A cursor is the id of the last record served: its
 * place is found again from the record, so tokens keep holding one id.
 */
export function createDatedSequence(
  segments: readonly Segment<OrderRecord>[],
  dateOf: DateOf = orderDate,
): Sequence<OrderRecord> {
  const placeOf = (record: OrderRecord): Place => ({ ms: dateOf(record), id: record.id });
  const live = segments.filter((s) => s.count > 0);
  // One segment is already in date order: its ids are its order (a form's listing).
  if (live.length <= 1) return segmentSequence(live[0]);
  const total = live.reduce((sum, s) => sum + s.count, 0);

  /** Where a cursor sits: the place of the record it names, or before every record / after every one. */
  const cursorPlace = (id: number, direction: Direction): Place | undefined => {
    for (const s of live)
      if (id >= s.firstId && id < s.firstId + s.count) return placeOf(s.at(id - s.firstId));
    if (id === START[direction]) {
      const ms = direction === "asc" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      return { ms, id };
    }
    return undefined;
  };

  /** The first index of a segment strictly after `place` in `direction` (asc), or the last before it (desc). */
  const headOf = (s: Segment<OrderRecord>, place: Place, direction: Direction): number => {
    const first = firstWhere(s.count, (index) => {
      const there = placeOf(s.at(index));
      return before(place, there) || (direction === "desc" && !before(there, place));
    });
    return direction === "asc" ? first : first - 1;
  };

  /** Records after `place` in `direction`, merged across the segments, `skip` of them left out, at most `size`. */
  const walk = (place: Place, direction: Direction, skip: number, size: number): OrderRecord[] => {
    const step = direction === "asc" ? 1 : -1;
    const indexes = live.map((s) => headOf(s, place, direction));
    const at = (i: number): OrderRecord | undefined => {
      const s = live[i] as Segment<OrderRecord>;
      const index = indexes[i] as number;
      return index >= 0 && index < s.count ? s.at(index) : undefined;
    };
    const heads = live.map((_, i) => at(i));
    const found: OrderRecord[] = [];
    for (let skipped = 0; found.length < size; ) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const record = heads[i];
        const leader = heads[best];
        if (record && (!leader || before(placeOf(record), placeOf(leader)) === (step === 1))) best = i;
      }
      const record = heads[best];
      if (!record) break;
      indexes[best] = (indexes[best] as number) + step;
      heads[best] = at(best);
      if (skipped < skip) skipped++;
      else found.push(record);
    }
    return found;
  };

  return {
    total,
    page(afterId, direction, size) {
      const place = cursorPlace(afterId, direction);
      return place ? walk(place, direction, 0, size) : [];
    },
    slice(offset, direction, size) {
      return walk(cursorPlace(START[direction], direction) as Place, direction, offset, size);
    },
  };
}

/** A record of a short, in-memory listing: its place in the list (from 1) and what the entry shows. */
export interface Numbered<T> {
  id: number;
  value: T;
}

/** A short list (an organization's forms, the partner's organizations) as a sequence, ids 1 … n. */
export function listSequence<T>(values: readonly T[]): Sequence<Numbered<T>> {
  return segmentSequence({
    firstId: 1,
    count: values.length,
    at: (index) => ({ id: index + 1, value: values[index] as T }),
  });
}
