/**
 * How far the cassette may fall behind the traffic: the exchanges and bytes journaled and not yet
 * converted into the cassette by the worker. Above the high mark, the proxy holds new requests back
 * (their bodies unread, so TCP slows their clients down); it lets them through again once the lag is
 * under the low mark on both counts. The lag after a burst is measured by `npm run bench` (Recording).
 */

/** A lag: exchanges and bytes journaled but not yet in the cassette. */
export interface Lag {
  readonly exchanges: number;
  readonly bytes: number;
}

/**
 * Above either of these, new requests wait. The count bounds the lag under many small exchanges (the
 * worker's cost is mostly per exchange: 4,096 of 2 KB are about 0.25 s of its time), the bytes under big
 * ones (64 MB of 1 MB bodies, about 0.6 s).
 */
export const LAG_HIGH: Lag = Object.freeze({ exchanges: 4096, bytes: 64 * 1024 * 1024 });

/**
 * Waiting requests go on once the lag is under both of these. The gap is kept small: every request that
 * arrives meanwhile waits until the worker has written the gap, so it sets the worst latency under a load
 * the worker cannot keep up with.
 */
export const LAG_LOW: Lag = Object.freeze({ exchanges: 3072, bytes: 48 * 1024 * 1024 });

/** Whether `lag` is past the high mark: new requests must wait. */
export function overBound(lag: Lag, high: Lag = LAG_HIGH): boolean {
  return lag.exchanges > high.exchanges || lag.bytes > high.bytes;
}

/** Whether `lag` is back under the low mark on both counts: waiting requests may go on. */
export function caughtUpEnough(lag: Lag, low: Lag = LAG_LOW): boolean {
  return lag.exchanges <= low.exchanges && lag.bytes <= low.bytes;
}
