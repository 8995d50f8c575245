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
