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
