import { withRoom } from "./columns.js";
import { StartOverMap } from "./start-over-map.js";

/** A canonical key is the SHA-256 of the canonical request (`key.ts`), written in base64url. */
const KEY_BYTES = 32;

/** A key's home slot before masking: its first four bytes, little-endian (a key is a hash already). */
function firstWord(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) |
      ((bytes[at + 1] ?? 0) << 8) |
      ((bytes[at + 2] ?? 0) << 16) |
      ((bytes[at + 3] ?? 0) << 24)) >>>
    0
  );
}

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
    for (let slot = firstWord(this.probe, 0) & mask; ; slot = (slot + 1) & mask) {
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
    for (const value of old) {
      if (value === 0) continue;
      let slot = firstWord(this.keys, (value - 1) * KEY_BYTES) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = value;
    }
  }
}
