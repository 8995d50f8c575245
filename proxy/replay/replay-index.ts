import { basename } from "node:path";
import type { LoadedInteraction } from "../cassette/format.js";
import { type HeldInteraction, holdInteraction } from "./held.js";
import { type CanonicalRequest, canonicalize } from "./key.js";
import { type CompiledRules, NO_RULES } from "./match-rules.js";

/** An interaction with its canonical request, computed once when the index is built. */
export interface IndexedInteraction {
  /** The interaction, held apart from the loaded cassette (its response body as bytes). */
  readonly interaction: HeldInteraction;
  readonly canonical: CanonicalRequest;
  /** Where it was recorded, `file.yaml:LINE` (sent as `x-assopay-replayed-from`). */
  readonly origin: string;
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

  constructor(interactions: Iterable<LoadedInteraction>, rules: CompiledRules = NO_RULES) {
    this.rules = rules;
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
    const interaction = holdInteraction(loaded);
    const { file, line } = interaction.source;
    const entry = {
      interaction,
      canonical: canonicalize(interaction.request, this.rules),
      origin: `${basename(file)}:${line}`,
    };
    const { key, method, path } = entry.canonical;
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
   * same path, else the same method, else all (at most a few thousand: misses are the rare path).
   */
  candidates(request: CanonicalRequest): readonly IndexedInteraction[] {
    const list =
      this.byMethodPath.get(`${request.method} ${request.path}`) ??
      this.byPath.get(request.path) ??
      this.byMethod.get(request.method) ??
      this.all;
    return list.length > MISS_SCAN_LIMIT ? list.slice(0, MISS_SCAN_LIMIT) : list;
  }
}

function push<K>(map: Map<K, IndexedInteraction[]>, key: K, entry: IndexedInteraction): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}
