/**
 * A byte automaton that finds many literal words at once (Aho–Corasick, as a dense table): one step per
 * byte, whatever the number of words. The recorder's body scan (`proxy/redaction/scan.ts`) runs two of
 * them side by side in its one pass over a body: the secret formats' literal prefixes, and the secret
 * field names. `FORMAT_CANDIDATE` (`formats.ts`) runs the first over text (`holdsWordWhere`).
 */

/** One word to find and the tag reported where it ends (1 to 255; a smaller tag wins where two end). */
interface AutomatonWord {
  readonly bytes: readonly number[];
  readonly tag: number;
}

/** How the automaton reads bytes besides the words' own. */
interface AutomatonOptions {
  /** ASCII letters of either case read alike (the words are given in lower case). */
  readonly foldCase: boolean;
  /** Bytes skipped wherever they are (`-` and `_` inside a field name: `access-token`, `a_p_i_key`). */
  readonly skip: readonly number[];
  /** Bytes whose step carries `FLAG` whatever the state (the caller has more to look at there). */
  readonly flagged: readonly number[];
}

/** The bit a step carries when it ends a word or reads a flagged byte: one test tells the rest apart. */
export const FLAG = 1 << 30;
/** What a step's value is without its flag: the row of the state it leads to. */
export const ROW = FLAG - 1;

/**
 * The built automaton. States are numbered by their row (`state * 256`), so that a step is `next[(s &
 * ROW) | byte]` without a multiplication; a step carries `FLAG` where a word ends or a flagged byte is
 * read (most steps do neither, and need no look at `tag`); `tag[(s & ROW) >> 8]` is the tag of the word
 * ending there (0: none).
 */
export interface Automaton {
  readonly next: Int32Array;
  readonly tag: Uint8Array;
}

const ROOT = 0;

/** Builds the automaton of `words` (its failure links folded into the table, so a step is one read). */
export function buildAutomaton(words: readonly AutomatonWord[], options: AutomatonOptions): Automaton {
  const edges: Map<number, number>[] = [new Map()];
  const tags: number[] = [0];
  for (const word of words) {
    let state = ROOT;
    for (const byte of word.bytes) {
      const edge = edges[state] as Map<number, number>;
      let to = edge.get(byte);
      if (to === undefined) {
        to = edges.length;
        edges.push(new Map());
        tags.push(0);
        edge.set(byte, to);
      }
      state = to;
    }
    const had = tags[state] ?? 0;
    tags[state] = had === 0 ? word.tag : Math.min(had, word.tag);
  }
  const next = new Int32Array(edges.length * 256);
  const tag = Uint8Array.from(tags);
  const fail = new Int32Array(edges.length);
  // Breadth first: a state's failure link is known before its children need it.
  const queue: number[] = [];
  for (let byte = 0; byte < 256; byte++) {
    const to = edges[ROOT]?.get(byte);
    next[byte] = to ?? ROOT;
    if (to !== undefined) queue.push(to);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] as number;
    const back = fail[state] as number;
    const own = tag[state] as number;
    const inherited = tag[back] as number;
    if (inherited !== 0 && (own === 0 || inherited < own)) tag[state] = inherited;
    for (let byte = 0; byte < 256; byte++) {
      const to = edges[state]?.get(byte);
      if (to === undefined) {
        next[state * 256 + byte] = next[back * 256 + byte] as number;
      } else {
        fail[to] = next[back * 256 + byte] as number;
        next[state * 256 + byte] = to;
        queue.push(to);
      }
    }
  }
  for (let state = 0; state < edges.length; state++) {
    const row = state * 256;
    if (options.foldCase) {
      for (let upper = 0x41; upper <= 0x5a; upper++) next[row + upper] = next[row + upper + 0x20] as number;
    }
    for (const byte of options.skip) next[row + byte] = state;
  }
  const flagged = new Uint8Array(256);
  for (const byte of options.flagged) flagged[byte] = 1;
  for (let k = 0; k < next.length; k++) {
    const to = next[k] as number;
    next[k] = to * 256 + (tag[to] !== 0 || flagged[k & 0xff] === 1 ? FLAG : 0);
  }
  return { next, tag };
}

/** A string's bytes as the automaton reads them (latin1: one byte per character). */
export function wordBytes(word: string): number[] {
  return [...Buffer.from(word, "latin1")];
}

/**
 * Whether `text` holds one of the automaton's words that `accept` takes where it ends (the text, the
 * word's tag, the index of its last character), read from the state `start` one character a byte (a
 * character above 255, in no word, starts the search afresh). For automata of ASCII words; a flagged
 * byte's step is handed to `accept` too (its tag 0 where no word ends).
 *
 * @example holdsWordWhere(buildAutomaton([{ bytes: wordBytes("ghp_"), tag: 1 }], PLAIN), "a ghp_x", () => true) // true
 */
export function holdsWordWhere(
  automaton: Automaton,
  text: string,
  accept: (text: string, tag: number, end: number) => boolean,
  start = 0,
): boolean {
  const { next, tag } = automaton;
  let state = start;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    state = next[(state & ROW) | (code > 0xff ? 0 : code)] as number;
    if ((state & FLAG) !== 0 && accept(text, tag[(state & ROW) >> 8] as number, i)) return true;
  }
  return false;
}

/** Options of an automaton that reads words as written, nothing skipped or flagged. */
export const PLAIN: AutomatonOptions = Object.freeze({ foldCase: false, skip: [], flagged: [] });
