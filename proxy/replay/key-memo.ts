import { StartOverMap } from "./start-over-map.js";

/** How many request lines the memo keeps before it starts over (a crawl of unique URLs cannot grow it). */
const DEFAULT_LIMIT = 10_000;

/**
 * The canonical keys of bodyless requests, by their request line (`GET /path?query` as sent).
 *
 * Replay redacts incoming requests without learning secrets, and canonical keys depend on the method,
 * the target and the body only, so for a request without a body the keys are a function of its request
 * line: computed once, the next identical request skips decoding, redaction and hashing. When the memo
 * is full it starts over, so its memory stays bounded whatever the traffic.
 */
export class KeyMemo extends StartOverMap<string, readonly string[]> {
  constructor(limit = DEFAULT_LIMIT) {
    super(limit);
  }

  /** The request line a memo entry is filed under. */
  static line(method: string, url: string): string {
    return `${method} ${url}`;
  }
}
