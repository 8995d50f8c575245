import type { HeldResponse } from "./held.js";

/** How many served interactions are kept ready before the cache starts over. */
const DEFAULT_LIMIT = 1024;

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
export class ServedCache {
  private readonly served = new Map<number, Served>();
  private readonly limit: number;

  constructor(limit = DEFAULT_LIMIT) {
    this.limit = limit;
  }

  /** The interaction as served, made by `make` when it is not in the cache. */
  get(entry: number, make: (entry: number) => Served): Served {
    let served = this.served.get(entry);
    if (served) return served;
    served = make(entry);
    if (this.served.size >= this.limit) this.served.clear();
    this.served.set(entry, served);
    return served;
  }

  get size(): number {
    return this.served.size;
  }
}
