import { bodyBytes } from "../cassette/body.js";
import type {
  ContentCoding,
  DocumentSource,
  LoadedInteraction,
  StoredHeaders,
  StoredRequest,
} from "../cassette/format.js";
import { hash32, withRoom } from "./columns.js";
import type { HeldResponse } from "./held.js";

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

  /** The text of `length` bytes from `start` of a chunk, decoded as UTF-8. */
  text(chunk: number, start: number, length: number): string {
    const bytes = this.chunks[chunk];
    if (!bytes) throw new RangeError(`no chunk ${chunk} in the arena`);
    return bytes.toString("utf8", start, start + length);
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
    const text = this.arena.text(
      this.field(at + CHUNK),
      this.field(at + START),
      this.field(at + REQUEST_BYTES),
    );
    return JSON.parse(text) as StoredRequest;
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
      headers: JSON.parse(this.arena.text(chunk, start, headersBytes)) as StoredHeaders,
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
