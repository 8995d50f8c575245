import * as zlib from "node:zlib";

/** CRC-32 (IEEE, as zlib and gzip compute it) of `bytes`, continuing from `previous`. */
export type Crc32 = (bytes: Uint8Array, previous?: number) => number;

/** The table of the byte-at-a-time CRC-32 (reflected polynomial 0xEDB88320). */
function table(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

/** The same CRC-32 in JavaScript, for the Node versions whose zlib lacks `crc32` (before 20.15 and 22.2). */
function portable(): Crc32 {
  const t = table();
  return (bytes, previous = 0) => {
    let c = ~previous >>> 0;
    for (let i = 0; i < bytes.length; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    return ~c >>> 0;
  };
}

/**
 * `zlib.crc32` where this Node has it (native code), else the portable one: both give the same value.
 * Empty input is answered here: Node 20's `zlib.crc32` returns 0, not `previous`, for an empty buffer
 * whose memory is a zero-length `ArrayBuffer` (the recorder's empty request bodies are such buffers).
 */
export const crc32: Crc32 = withEmpty(
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32: Crc32 }).crc32
    : portable(),
);

function withEmpty(inner: Crc32): Crc32 {
  return (bytes, previous = 0) => (bytes.length === 0 ? previous >>> 0 : inner(bytes, previous));
}

/** Exposed for the test that checks both agree. */
export const portableCrc32: () => Crc32 = portable;
