import type { HeldResponse } from "./held.js";
import { StartOverMap } from "./start-over-map.js";

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
export class ServedCache extends StartOverMap<number, Served> {
  constructor(limit = DEFAULT_LIMIT) {
    super(limit);
  }
}
