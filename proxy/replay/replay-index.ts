import type { LoadedInteraction } from "../cassette/format.js";
import { type HeldInteraction, holdInteraction } from "./held.js";
import { type CanonicalRequest, canonicalize } from "./key.js";
import { type CompiledRules, NO_RULES } from "./match-rules.js";

/**
 * An interaction with the hash key of its canonical request. The canonical form itself is not kept: only
 * a miss compares it, field by field, and the index recomputes it then for the recordings it compares
 * (`candidates`). Kept for every interaction, it was half of what a large cassette keeps on the heap,
 * and every scavenge of a replay grew with that heap.
 */
export interface IndexedInteraction {
  /** The interaction, held apart from the loaded cassette (its response body as bytes). */
  readonly interaction: HeldInteraction;
  readonly key: string;
}

/** A recorded request a miss is compared with, in canonical form. */
export interface Candidate {
  readonly entry: IndexedInteraction;
  readonly canonical: CanonicalRequest;
}

interface Slot {
  readonly entries: IndexedInteraction[];
  next: number;
}

/** How many recorded requests a miss explanation compares at most. */
const MISS_SCAN_LIMIT = 5000;

/**
 * The recorded interactions of one or more cassettes, found by the hash key of their canonical request
 * (a `Map` lookup: no scan, whatever the number of interactions). Identical requests are served in
 * recorded order; once all are used, the last one repeats (or nothing, with `repeatLast: false`).
 * Notification documents are not served: the service sent those requests, the client never does.
 */
export class ReplayIndex {
  private readonly byKey = new Map<string, Slot>();
  private readonly byMethodPath = new Map<string, IndexedInteraction[]>();
  private readonly byPath = new Map<string, IndexedInteraction[]>();
  private readonly byMethod = new Map<string, IndexedInteraction[]>();
  private readonly all: IndexedInteraction[] = [];
  /** The matching rules applied to recorded and incoming requests alike. */
  readonly rules: CompiledRules;
  /** The request headers matching reads (the body's type, and those a header rule compares). */
  private readonly matchedHeaders: readonly string[];

  constructor(interactions: Iterable<LoadedInteraction>, rules: CompiledRules = NO_RULES) {
    this.rules = rules;
    this.matchedHeaders = ["content-type", ...rules.headers.map((rule) => rule.segments[0] ?? "")];
    for (const interaction of interactions) if (!interaction.notification) this.add(interaction);
  }

  /** Number of servable interactions. */
  get size(): number {
    return this.all.length;
  }

  /**
   * Adds one interaction (the recorder adds what it records in `new` mode). The index keeps nothing of
   * the loaded document: the cassette can be collected once it is indexed.
   */
  add(loaded: LoadedInteraction): void {
    const interaction = holdInteraction(loaded, this.matchedHeaders);
    const { key, method, path } = canonicalize(interaction.request, this.rules);
    const entry: IndexedInteraction = { interaction, key };
    const slot = this.byKey.get(key);
    if (slot) slot.entries.push(entry);
    else this.byKey.set(key, { entries: [entry], next: 0 });
    push(this.byMethodPath, `${method} ${path}`, entry);
    push(this.byPath, path, entry);
    push(this.byMethod, method, entry);
    this.all.push(entry);
  }

  /** The next recorded interaction for a request with this key, if any. */
  take(key: string, repeatLast = true): IndexedInteraction | undefined {
    const slot = this.byKey.get(key);
    if (!slot) return undefined;
    if (slot.next < slot.entries.length) return slot.entries[slot.next++];
    return repeatLast ? slot.entries[slot.entries.length - 1] : undefined;
  }

  /** Starts every sequence over: each request gets its first recording again. */
  reset(): void {
    for (const slot of this.byKey.values()) slot.next = 0;
  }

  /**
   * Recorded requests worth comparing with a request nothing matched: the same method and path, else the
   * same path, else the same method, else all (at most a few thousand: misses are the rare path), each
   * in canonical form.
   */
  candidates(request: CanonicalRequest): readonly Candidate[] {
    const list =
      this.byMethodPath.get(`${request.method} ${request.path}`) ??
      this.byPath.get(request.path) ??
      this.byMethod.get(request.method) ??
      this.all;
    return list.slice(0, MISS_SCAN_LIMIT).map((entry) => ({
      entry,
      canonical: canonicalize(entry.interaction.request, this.rules, false),
    }));
  }
}

function push<K>(map: Map<K, IndexedInteraction[]>, key: K, entry: IndexedInteraction): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}
