import type { DocumentSource, LoadedInteraction, StoredRequest } from "../cassette/format.js";
import type { HeldResponse } from "./held.js";
import { type CanonicalRequest, canonicalize } from "./key.js";
import { KeyTable } from "./key-table.js";
import { type CompiledRules, NO_RULES } from "./match-rules.js";
import { grouping, Recordings } from "./recordings.js";

/** A recorded request a miss is compared with, in canonical form. */
export interface Candidate {
  readonly id: number;
  readonly source: DocumentSource;
  readonly request: StoredRequest;
  readonly canonical: CanonicalRequest;
}

/** How many recorded requests a miss explanation compares at most. */
const MISS_SCAN_LIMIT = 5000;

/**
 * The recorded interactions of one or more cassettes, numbered in the order added and found by the
 * hash key of their canonical request (a hash table lookup: no scan, whatever the number of
 * interactions). Identical requests are served in recorded order; once all are used, the last one
 * repeats (or nothing, with `repeatLast: false`). Notification documents are not served: the service
 * sent those requests, the client never does.
 *
 * The index keeps its interactions in typed arrays and a few large buffers (`KeyTable`, `Recordings`),
 * not as objects: with objects, every scavenge of a replay of 100,000 interactions took several times
 * as long as with 10, for the same garbage.
 */
export class ReplayIndex {
  private readonly keys = new KeyTable();
  private readonly recordings = new Recordings();
  /** The matching rules applied to recorded and incoming requests alike. */
  readonly rules: CompiledRules;
  /** The request headers matching reads (the body's type, and those a header rule compares). */
  private readonly matchedHeaders: readonly string[];

  constructor(interactions: Iterable<LoadedInteraction>, rules: CompiledRules = NO_RULES) {
    this.rules = rules;
    this.matchedHeaders = ["content-type", ...rules.headers.map((rule) => rule.segments[0] ?? "")];
    for (const interaction of interactions) this.add(interaction);
  }

  /** Number of servable interactions. */
  get size(): number {
    return this.recordings.size;
  }

  /**
   * Adds one interaction; a notification is left out. The index keeps nothing of the loaded document: it
   * can be collected once it is indexed (replay streams a cassette in, one document at a time).
   */
  add(loaded: LoadedInteraction): void {
    if (loaded.notification) return;
    const { key, method, path } = canonicalize(loaded.request, this.rules);
    const entry = this.recordings.append(loaded, this.matchedHeaders, grouping(method, path));
    if (this.keys.add(key) !== entry) throw new Error("replay index: keys and recordings out of step");
  }

  /** The number of the next recorded interaction for a request with this key, if any. */
  take(key: string, repeatLast = true): number | undefined {
    return this.keys.take(key, repeatLast);
  }

  /** Starts every sequence over: each request gets its first recording again. */
  reset(): void {
    this.keys.reset();
  }

  /** The recorded response of an interaction, made anew from the kept bytes on each call. */
  response(entry: number): HeldResponse {
    return this.recordings.response(entry);
  }

  /** The recorded request of an interaction (with only the headers matching reads), made anew. */
  request(entry: number): StoredRequest {
    return this.recordings.request(entry);
  }

  /** Where an interaction was recorded. */
  source(entry: number): DocumentSource {
    return this.recordings.source(entry);
  }

  /** The recorded id of an interaction. */
  id(entry: number): number {
    return this.recordings.id(entry);
  }

  /**
   * Recorded requests worth comparing with a request nothing matched: the same method and path, else the
   * same path, else the same method, else all (at most a few thousand: misses are the rare path), each
   * in canonical form.
   */
  candidates(request: CanonicalRequest): readonly Candidate[] {
    const [methodPath, path, method] = this.recordings.grouped(
      grouping(request.method, request.path),
      MISS_SCAN_LIMIT,
    );
    const levels: [number[], (c: CanonicalRequest) => boolean][] = [
      [methodPath, (c) => c.method === request.method && c.path === request.path],
      [path, (c) => c.path === request.path],
      [method, (c) => c.method === request.method],
    ];
    for (const [entries, same] of levels) {
      // Grouped by hash: a recording whose hash only collides is left out.
      const found = this.compared(entries).filter((candidate) => same(candidate.canonical));
      if (found.length > 0) return found;
    }
    const all = Array.from({ length: Math.min(this.size, MISS_SCAN_LIMIT) }, (_, entry) => entry);
    return this.compared(all);
  }

  private compared(entries: readonly number[]): Candidate[] {
    return entries.map((entry) => {
      const request = this.request(entry);
      return {
        id: this.id(entry),
        source: this.source(entry),
        request,
        canonical: canonicalize(request, this.rules, false),
      };
    });
  }
}
