// Seeded random data with the characters and words YAML treats specially: for emitter round trips.

/** A small seeded generator, so that a failure can be replayed. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PIECES = [
  "a",
  "Z",
  "_",
  "/",
  "<",
  ">",
  ":",
  " ",
  "  ",
  "#",
  "-",
  "?",
  "!",
  "&",
  "*",
  "|",
  "'",
  '"',
  "\\",
  ",",
  "[",
  "{",
  "%",
  "@",
  "`",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u0085",
  "\u2028",
  "\ufeff",
  "é",
  "漢",
  "😀",
  "\ud800",
  "true",
  "null",
  "~",
  "1",
  "0x1f",
  ".5",
  "---",
  "...",
  "<<",
  "yes",
  "key: v",
  "<secret:0123456789abcdef>",
  "http://x/y?z=1",
];

export function text(next: () => number): string {
  let out = "";
  const length = Math.floor(next() * 6);
  for (let i = 0; i < length; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

export function value(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [0, -1, 1.5, 1e21, 1e-7, 123456789, -0.25][Math.floor(next() * 7)];
    case 3:
    case 4:
      return text(next);
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const map: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 4); i > 0; i--) map[text(next)] = value(next, depth + 1);
      return map;
    }
  }
}
