import { bodyBytes } from "../cassette/body.js";
import type {
  ContentCoding,
  DocumentSource,
  LoadedInteraction,
  StoredHeaders,
  StoredRequest,
} from "../cassette/format.js";
import type { HeldResponse } from "./held.js";
import { type CanonicalRequest, canonicalize } from "./key.js";
import { type CompiledRules, NO_RULES } from "./match-rules.js";
import { StartOverMap } from "./start-over-map.js";

/** A typed array of numbers that replay's packed index keeps one or more slots of per interaction. */
export type Column = Int32Array | Float64Array | Uint8Array;

/**
 * The same column with room for at least `length` slots: itself when it has them, else a copy twice
 * as long (or as long as needed). Typed arrays keep their numbers outside the JavaScript heap, so an
 * index of 100,000 interactions adds a few buffers to it, not 100,000 objects.
 */
export function withRoom<T extends Column>(column: T, length: number): T {
  if (column.length >= length) return column;
  const make = column.constructor as new (length: number) => T;
  const grown = new make(Math.max(length, column.length * 2, 16));
  grown.set(column);
  return grown;
}

/** FNV-1a, 32 bits, of a string's UTF-16 code units: a cheap hash to group interactions by. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The largest shared chunk; a record of more than a quarter of it gets a chunk of its own. */

const CHUNK_BYTES = 8 * 1024 * 1024;
/** The first shared chunk: each next one is twice the last, up to `CHUNK_BYTES` (a small cassette stays small). */
const FIRST_CHUNK_BYTES = 64 * 1024;

/** Where a record was put: its chunk and its first byte in it. */
export interface ArenaPlace {
  readonly chunk: number;
  readonly start: number;
}

/**
 * Bytes kept outside the JavaScript heap, in a few large buffers: records are appended one after the
 * other and found again by chunk and offset. A cassette of 100,000 interactions is then some forty
 * buffers, not 100,000 of them (each with its `Uint8Array` on the heap and its extension for the garbage
 * collector to visit); a view of a record is made when it is served.
 */
export class ByteArena {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in the last shared chunk. */
  private used = 0;
  /** The index of the chunk records are appended to (a record's own chunk is never appended to). */
  private shared = -1;

  /** Total bytes held (the chunks' capacity, used or not). */
  get bytes(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk.length;
    return total;
  }

  /**
   * Room for a record of `length` bytes; `write` fills it (from its first byte) and the place is returned.
   * The record can be read back with `view` once written.
   */
  append(length: number, write: (into: Buffer, start: number) => void): ArenaPlace {
    if (length > CHUNK_BYTES / 4) {
      const own = Buffer.allocUnsafeSlow(length);
      this.chunks.push(own);
      write(own, 0);
      return { chunk: this.chunks.length - 1, start: 0 };
    }
    const last = this.chunks[this.shared];
    if (!last || this.used + length > last.length) {
      const size = Math.min(CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, 2 * (last?.length ?? 0), length));
      this.chunks.push(Buffer.allocUnsafeSlow(size));
      this.shared = this.chunks.length - 1;
      this.used = 0;
    }
    const chunk = this.chunks[this.shared] as Buffer;
    const start = this.used;
    write(chunk, start);
    this.used += length;
    return { chunk: this.shared, start };
  }

  /** A view of `length` bytes from `start` of a chunk (no copy: the arena's bytes are never changed). */
  view(chunk: number, start: number, length: number): Buffer {
    const bytes = this.chunks[chunk];
    if (!bytes) throw new RangeError(`no chunk ${chunk} in the arena`);
    return bytes.subarray(start, start + length);
  }
}

/** The content codings a body can be re-compressed with, by their number in a record's flags. */
const CODINGS = ["gzip", "deflate", "br"] as const satisfies readonly ContentCoding[];
/** Flag: the body was stored as JSON data (only then may the timeline rewrite it). */
const JSON_FLAG = 4;

/** Per interaction, these numbers in one `Int32Array` (a stride of `FIELDS`). */
const FILE = 0;
const LINE = 1;
const STATUS = 2;
const FLAGS = 3;
const CHUNK = 4;
const START = 5;
const REQUEST_BYTES = 6;
const HEADERS_BYTES = 7;
const BODY_BYTES = 8;
const METHOD_PATH_HASH = 9;
const PATH_HASH = 10;
const METHOD_HASH = 11;
const FIELDS = 12;

/** The hashes of a request's method and path that a miss groups recordings by (`ReplayIndex.candidates`). */
export interface Grouping {
  methodPath: number;
  path: number;
  method: number;
}

/** The hashes grouping recordings for a request of this canonical method and path. */
export function grouping(method: string, path: string): Grouping {
  return { methodPath: hash32(`${method} ${path}`), path: hash32(path), method: hash32(method) };
}

/** The request headers of these names (lower-case), the others left out. */
function onlyHeaders(headers: StoredHeaders, names: readonly string[]): StoredHeaders {
  const out: StoredHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (names.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * The recorded interactions as replay keeps them: for each, its request (as JSON text, with only the
 * headers matching reads), its response's headers (JSON text) and body (its bytes before any content
 * coding) one after the other in a `ByteArena`, and its numbers (where it was recorded, its status,
 * where its bytes are) in typed arrays. None of it is a JavaScript object: the heap of a replay holds
 * the same few buffers whatever the size of its cassettes, and the garbage collector has nothing of the
 * index to walk. What serving needs is made from the bytes when an interaction is served.
 */
export class Recordings {
  private readonly arena = new ByteArena();
  private readonly files: string[] = [];
  private numbers = new Int32Array(0);
  private ids = new Float64Array(0);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Keeps an interaction (nothing of the loaded document is referenced after); returns its number. */
  append(loaded: LoadedInteraction, matched: readonly string[], groups: Grouping): number {
    const entry = this.count++;
    this.numbers = withRoom(this.numbers, this.count * FIELDS);
    this.ids = withRoom(this.ids, this.count);
    const recorded = loaded.request;
    const request = JSON.stringify({ ...recorded, headers: onlyHeaders(recorded.headers, matched) });
    const headers = JSON.stringify(loaded.response.headers);
    const body = loaded.response.body;
    const bytes = bodyBytes(body);
    const requestBytes = Buffer.byteLength(request);
    const headersBytes = Buffer.byteLength(headers);
    const place = this.arena.append(requestBytes + headersBytes + bytes.length, (into, start) => {
      into.write(request, start, "utf8");
      into.write(headers, start + requestBytes, "utf8");
      bytes.copy(into, start + requestBytes + headersBytes);
    });
    let file = this.files.indexOf(loaded.source.file);
    if (file < 0) file = this.files.push(loaded.source.file) - 1;
    const coding = body?.encoding ? CODINGS.indexOf(body.encoding) + 1 : 0;
    const at = entry * FIELDS;
    this.numbers.set(
      [
        file,
        loaded.source.line,
        loaded.response.status,
        coding | (body !== undefined && "json" in body ? JSON_FLAG : 0),
        place.chunk,
        place.start,
        requestBytes,
        headersBytes,
        bytes.length,
        groups.methodPath,
        groups.path,
        groups.method,
      ],
      at,
    );
    this.ids[entry] = loaded.id;
    return entry;
  }

  /** Where the interaction was recorded (`file`, 1-based line of its `---`). */
  source(entry: number): DocumentSource {
    const at = entry * FIELDS;
    return { file: this.files[this.field(at + FILE)] ?? "", line: this.field(at + LINE) };
  }

  id(entry: number): number {
    return this.ids[entry] ?? 0;
  }

  /** The recorded request (already redacted), with only the headers matching reads. */
  request(entry: number): StoredRequest {
    const at = entry * FIELDS;
    const bytes = this.arena.view(
      this.field(at + CHUNK),
      this.field(at + START),
      this.field(at + REQUEST_BYTES),
    );
    return JSON.parse(bytes.toString("utf8")) as StoredRequest;
  }

  /** The recorded response, made from the kept bytes (its body a view of them, not a copy). */
  response(entry: number): HeldResponse {
    const at = entry * FIELDS;
    const chunk = this.field(at + CHUNK);
    const start = this.field(at + START) + this.field(at + REQUEST_BYTES);
    const headersBytes = this.field(at + HEADERS_BYTES);
    const flags = this.field(at + FLAGS);
    return Object.freeze({
      status: this.field(at + STATUS),
      headers: JSON.parse(this.arena.view(chunk, start, headersBytes).toString("utf8")) as StoredHeaders,
      bytes: this.arena.view(chunk, start + headersBytes, this.field(at + BODY_BYTES)),
      encoding: CODINGS[(flags & 3) - 1],
      json: (flags & JSON_FLAG) !== 0,
    });
  }

  /**
   * The interactions, in recorded order, that share the request's method and path, else its path, else
   * its method (each list at most `limit` long; by hash, so a list may hold a recording that only
   * collides: the caller compares the canonical forms).
   */
  grouped(groups: Grouping, limit: number): [number[], number[], number[]] {
    const lists: [number[], number[], number[]] = [[], [], []];
    for (let entry = 0, at = 0; entry < this.count; entry++, at += FIELDS) {
      if (this.numbers[at + METHOD_PATH_HASH] === groups.methodPath && lists[0].length < limit)
        lists[0].push(entry);
      if (this.numbers[at + PATH_HASH] === groups.path && lists[1].length < limit) lists[1].push(entry);
      if (this.numbers[at + METHOD_HASH] === groups.method && lists[2].length < limit) lists[2].push(entry);
    }
    return lists;
  }

  private field(at: number): number {
    return this.numbers[at] ?? 0;
  }
}

/** A canonical key is the SHA-256 of the canonical request (`key.ts`), written in base64url. */
const KEY_BYTES = 32;

/** How many keys looked up are remembered by their text before the memory starts over. */
const RECENT_LIMIT = 4096;

/**
 * The canonical keys of the recorded interactions (numbered 0, 1, ... in the order added), and for each
 * key the sequence of its interactions, served in recorded order. Everything is in typed arrays: the
 * keys' bytes side by side, and an open-addressing hash table of the first interaction of each key
 * (probed by the key's first four bytes, confirmed by comparing all 32), so the index puts no string
 * and no object per interaction on the heap. Only keys looked up are kept as text, at most a few
 * thousand, so a request seen before costs one `Map` lookup as it did with a `Map` of every key.
 */
export class KeyTable {
  /** The keys' bytes, side by side; a key's home slot before masking is its first four (a key is a hash already). */
  private keys = new Uint8Array(0);
  /** Per interaction: the next one with the same key, or -1. */
  private nextSame = new Int32Array(0);
  /** Per first interaction of a key: the one to serve next (-1 once all were), and the last one. */
  private cursor = new Int32Array(0);
  private tail = new Int32Array(0);
  /** Open addressing: the first interaction of a key, plus one (0 is an empty slot). */
  private slots = new Int32Array(64);
  private groups = 0;
  private count = 0;
  private readonly probe = Buffer.alloc(KEY_BYTES);
  private readonly recent = new StartOverMap<string, number>(RECENT_LIMIT);

  get size(): number {
    return this.count;
  }

  /** Files the next interaction under `key`; returns its number. */
  add(key: string): number {
    const entry = this.count++;
    this.keys = withRoom(this.keys, this.count * KEY_BYTES);
    this.nextSame = withRoom(this.nextSame, this.count);
    this.cursor = withRoom(this.cursor, this.count);
    this.tail = withRoom(this.tail, this.count);
    if (this.probe.write(key, 0, "base64url") !== KEY_BYTES) throw new RangeError(`not a key: ${key}`);
    this.keys.set(this.probe, entry * KEY_BYTES);
    this.nextSame[entry] = -1;
    const slot = this.find();
    const head = (this.slots[slot] ?? 0) - 1;
    if (head >= 0) {
      const last = this.tail[head] ?? head;
      this.nextSame[last] = entry;
      this.tail[head] = entry;
      if (this.cursor[head] === -1) this.cursor[head] = entry;
      return entry;
    }
    this.cursor[entry] = entry;
    this.tail[entry] = entry;
    this.slots[slot] = entry + 1;
    if (++this.groups * 2 > this.slots.length) this.rehash();
    return entry;
  }

  /**
   * The next interaction recorded for this key: in recorded order, then the last one again
   * (`repeatLast`) or none. Undefined when nothing was recorded for it.
   */
  take(key: string, repeatLast: boolean): number | undefined {
    let head = this.recent.get(key);
    if (head === undefined) {
      if (this.probe.write(key, 0, "base64url") !== KEY_BYTES) return undefined;
      head = (this.slots[this.find()] ?? 0) - 1;
      if (head < 0) return undefined;
      this.recent.set(key, head);
    }
    const next = this.cursor[head] ?? -1;
    if (next < 0) return repeatLast ? this.tail[head] : undefined;
    this.cursor[head] = this.nextSame[next] ?? -1;
    return next;
  }

  /** Starts every sequence over. */
  reset(): void {
    for (const slot of this.slots) if (slot > 0) this.cursor[slot - 1] = slot - 1;
  }

  /** The slot of the key in `probe`: where it is, or the empty slot where it would go. */
  private find(): number {
    const mask = this.slots.length - 1;
    for (let slot = this.probe.readUInt32LE(0) & mask; ; slot = (slot + 1) & mask) {
      const head = (this.slots[slot] ?? 0) - 1;
      if (head < 0 || this.sameKey(head)) return slot;
    }
  }

  private sameKey(entry: number): boolean {
    const at = entry * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) if (this.keys[at + i] !== this.probe[i]) return false;
    return true;
  }

  /** Twice as many slots, every key filed again. */
  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    const mask = this.slots.length - 1;
    const keys = Buffer.from(this.keys.buffer, this.keys.byteOffset, this.keys.byteLength);
    for (const value of old) {
      if (value === 0) continue;
      let slot = keys.readUInt32LE((value - 1) * KEY_BYTES) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = value;
    }
  }
}

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
 * The index keeps its interactions in typed arrays and a few large buffers (`KeyTable`, and the
 * `Recordings` it is, which serve each interaction's request, response and source), not as objects:
 * with objects, every scavenge of a replay of 100,000 interactions took several times as long as with
 * 10, for the same garbage.
 */
export class ReplayIndex extends Recordings {
  private readonly keys = new KeyTable();
  /** The matching rules applied to recorded and incoming requests alike. */
  readonly rules: CompiledRules;
  /** The request headers matching reads (the body's type, and those a header rule compares). */
  private readonly matchedHeaders: readonly string[];

  constructor(interactions: Iterable<LoadedInteraction>, rules: CompiledRules = NO_RULES) {
    super();
    this.rules = rules;
    this.matchedHeaders = ["content-type", ...rules.headers.map((rule) => rule.segments[0] ?? "")];
    for (const interaction of interactions) this.add(interaction);
  }

  /**
   * Adds one interaction; a notification is left out. The index keeps nothing of the loaded document: it
   * can be collected once it is indexed (replay streams a cassette in, one document at a time).
   */
  add(loaded: LoadedInteraction): void {
    if (loaded.notification) return;
    const { key, method, path } = canonicalize(loaded.request, this.rules);
    const entry = this.append(loaded, this.matchedHeaders, grouping(method, path));
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

  /**
   * Recorded requests worth comparing with a request nothing matched: the same method and path, else the
   * same path, else the same method, else all (at most a few thousand: misses are the rare path), each
   * in canonical form.
   */
  candidates(request: CanonicalRequest): readonly Candidate[] {
    const [methodPath, path, method] = this.grouped(grouping(request.method, request.path), MISS_SCAN_LIMIT);
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
