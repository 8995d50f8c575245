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
