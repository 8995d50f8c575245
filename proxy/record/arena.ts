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

  /** Copies a body in; its place is given back by `take`. */
  put(body: Buffer): void {
    if (this.used + body.length > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + body.length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    body.copy(this.bytes, this.used);
    this.bounds.push(this.used, this.used + body.length);
    this.used += body.length;
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
