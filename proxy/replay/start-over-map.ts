import type { HeldResponse } from "./held.js";

/**
 * A `Map` bounded by starting over: once it holds `limit` entries, the next `set` empties it first. Replay
 * keeps what it computes again and again this way (keys by request line, keys' first recordings, responses
 * served lately): its memory stays bounded whatever the traffic, and a hit costs no bookkeeping.
 *
 * @example
 * const seen = new StartOverMap<string, number>(4096);
 * const head = seen.getOrMake(key, () => lookUp(key));
 */
export class StartOverMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, value);
  }

  /** The value of `key`, made by `make` and kept when there is none. */
  getOrMake(key: K, make: (key: K) => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = make(key);
      this.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** How many request lines the memo keeps before it starts over (a crawl of unique URLs cannot grow it). */
const MEMO_LIMIT = 10_000;

/**
 * The canonical keys of bodyless requests, by their request line (`GET /path?query` as sent).
 *
 * Replay redacts incoming requests without learning secrets, and canonical keys depend on the method,
 * the target and the body only, so for a request without a body the keys are a function of its request
 * line: computed once, the next identical request skips decoding, redaction and hashing. When the memo
 * is full it starts over, so its memory stays bounded whatever the traffic.
 */
export class KeyMemo extends StartOverMap<string, readonly string[]> {
  constructor(limit = MEMO_LIMIT) {
    super(limit);
  }

  /** The request line a memo entry is filed under. */
  static line(method: string, url: string): string {
    return `${method} ${url}`;
  }
}

/** How many served interactions are kept ready before the cache starts over. */
const SERVED_LIMIT = 1024;

/** A recorded interaction as it is served: its response and the header naming where it was recorded. */
export interface Served {
  readonly response: HeldResponse;
  /** `x-assopay-replayed-from: file.yaml:LINE`, one object per interaction (servers cache by it). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The interactions served lately, by their number in the index, each made once from the index's bytes.
 * An interaction served again is the same object, so what the server prepared for it (merged headers,
 * a re-compressed body) and the origin rewriter's copy are used again; when full the cache starts over,
 * so a crawl of 100,000 pages keeps no more than the last thousand.
 */
export class ServedCache extends StartOverMap<number, Served> {
  constructor(limit = SERVED_LIMIT) {
    super(limit);
  }
}
