/**
 * How far the cassette may fall behind the traffic, and how long the journal may grow. Past either high
 * mark the proxy holds new requests back (their bodies unread, so TCP slows their clients down) and lets
 * them through again once both are under their low marks. The lag after a burst is measured by
 * `npm run bench` (Recording).
 *
 * The journal is only ever emptied whole, once everything in it is in the cassette. Under traffic that
 * never pauses that moment never came by itself: the journal grew with the recording (1.9 GB beside a
 * 1.9 GB cassette after 14 s of 1 MB exchanges), twice the disk, every secret kept raw until the end, and
 * each append on pages the kernel had to find anew. So its length has a mark: there it is sealed and a
 * new one started (`JournalQueue`, `worker-host.ts`), and when it cannot be, because the last sealed one is not
 * converted yet, new requests wait.
 */

/** A lag: exchanges journaled but not yet in the cassette, and the journal's length in bytes. */
export interface Lag {
  readonly exchanges: number;
  readonly journalBytes: number;
}

/**
 * Past either of these, new requests wait. The count bounds the lag under many small exchanges (the
 * worker's cost is mostly per exchange: 4,096 of 2 KB are about 0.25 s of its time). The journal's length
 * (reached only while it cannot be sealed yet) bounds it under big ones: two marks of 1 MB bodies are
 * about 0.2 s of the worker's time.
 */
export const LAG_HIGH: Lag = Object.freeze({ exchanges: 4096, journalBytes: 16 * 1024 * 1024 });

/**
 * Waiting requests go on once the count is under this one and the journal is back under its high mark
 * (sealed in its turn, or emptied). The gap of the count is kept small: every request that
 * arrives meanwhile waits until the worker has written the gap, so it sets the worst latency under a load
 * the worker cannot keep up with.
 */
export const LAG_LOW: Pick<Lag, "exchanges"> = Object.freeze({ exchanges: 3072 });

/** Whether `lag` is past a high mark: new requests must wait. */
export function overBound(lag: Lag, high: Lag = LAG_HIGH): boolean {
  return lag.exchanges > high.exchanges || lag.journalBytes >= high.journalBytes;
}

/** Whether `lag` is back under the low marks: waiting requests may go on. */
export function caughtUpEnough(
  lag: Lag,
  low: Pick<Lag, "exchanges"> = LAG_LOW,
  high: Lag = LAG_HIGH,
): boolean {
  return lag.exchanges <= low.exchanges && lag.journalBytes < high.journalBytes;
}
