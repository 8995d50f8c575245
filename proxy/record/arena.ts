import type { CapturedBody } from "./capture.js";

/** The size an arena starts at: room for a batch of small bodies. */
const INITIAL_BYTES = 64 * 1024;

/**
 * The bodies of one batch, copied one after the other into memory of its own, so that the whole batch
 * crosses to the worker as a single transferred buffer (one transfer, not two per exchange).
 */
export class BodyArena {
  private bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  private used = 0;
  private bounds: number[] = [];

  /** Bytes held so far. */
  get size(): number {
    return this.used;
  }

  /** Whether `length` more bytes fit without growing (growing copies what is held). */
  fits(length: number): boolean {
    return this.used + length <= this.bytes.length;
  }

  /**
   * Makes room for `length` more bytes at once. An empty arena is replaced by one of the right size;
   * a used one grows (copying what it holds: callers hand a batch over first when they can).
   */
  reserve(length: number): void {
    if (this.fits(length)) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(INITIAL_BYTES, this.bytes.length * 2, this.used + length));
    if (this.used > 0) this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }

  /** Copies a body in (a buffer, or its chunks one after the other); its place is given back by `take`. */
  put(body: CapturedBody): void {
    const start = this.used;
    if (Buffer.isBuffer(body)) {
      this.reserve(body.length);
      this.used += body.copy(this.bytes, this.used);
    } else {
      for (const chunk of body) {
        this.reserve(chunk.length);
        this.used += chunk.copy(this.bytes, this.used);
      }
    }
    this.bounds.push(start, this.used);
  }

  /** The memory and where each body lies in it (start, end, start, end …); the arena starts afresh. */
  take(): { buffer: ArrayBuffer; bounds: number[] } {
    const taken = { buffer: this.bytes.buffer as ArrayBuffer, bounds: this.bounds };
    this.bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);
    this.used = 0;
    this.bounds = [];
    return taken;
  }
}
