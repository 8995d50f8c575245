/**
 * The shape most providers' tokens share, whoever the provider: a short prefix that names the kind
 * (`sl.`, `squ_`, `pnu_`, `tk-us-`, `FLWSECK_TEST-` …), then a random body of 20 characters or more. A
 * table of prefixes can never list every provider; this shape finds the ones it lacks. What tells a
 * token from an identifier, a slug or a file name is the body: random text changes between lower case,
 * upper case and digits far more often than words and numbers do.
 */

/**
 * A prefix (a letter, up to 11 letters or digits, up to two more `_` or `-` parts, then `_`, `.`, `:` or
 * `-`) at the start of a word, not inside a path, a host or another token; then the body (letters, digits,
 * `_`, `-`, and `.` between them: `dt0c01.<id>.<secret>`).
 */
export const PREFIXED =
  /(?<![\w.+/-])(?:[A-Za-z][A-Za-z0-9]{0,11}(?:[_-][A-Za-z0-9]{1,11}){0,2}[_.:-])(?<secret>[A-Za-z0-9](?:[\w-]|\.(?=[\w-])){19,254})(?![\w-])/g;

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
function classOf(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return LOWER;
  if (code >= 0x41 && code <= 0x5a) return UPPER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  return 0;
}

/**
 * Whether a token's body reads as random: 20 letters and digits or more, both kinds, a run of 16 or more
 * between its `_` and `-`, and the kind of character (lower case, upper case, digit) changing at one
 * place in four at least (six at least). `gala-annuel-2024-inscriptions`, `Registration2024Participants`
 * and a hex run of a few digits do not; a base62 or hex token does.
 *
 * @example looksRandom("9xK2mQ7vT4pL8wR3nB6yZ1c") // true
 * @example looksRandom("assemblee-generale-2025") // false
 */
export function looksRandom(body: string): boolean {
  let alnum = 0;
  let letters = 0;
  let digits = 0;
  let changes = 0;
  let run = 0;
  let longest = 0;
  let previous = 0;
  for (let i = 0; i < body.length; i++) {
    const kind = classOf(body.charCodeAt(i));
    if (kind === 0) {
      run = 0;
      previous = 0;
      continue;
    }
    alnum++;
    if (kind === DIGIT) digits++;
    else letters++;
    if (previous !== 0 && kind !== previous) changes++;
    previous = kind;
    longest = Math.max(longest, ++run);
  }
  return alnum >= 20 && letters > 0 && digits > 0 && longest >= 16 && changes >= Math.max(6, alnum / 4);
}

/** The bytes of a body's characters (`[A-Za-z0-9_.-]`): 1, every other byte 0. */
const TOKEN_BYTE = (() => {
  const table = new Uint8Array(256);
  for (const [from, to] of [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ] as const) {
    for (let c = from; c <= to; c++) table[c] = 1;
  }
  table[0x5f] = 1;
  table[0x2d] = 1;
  table[0x2e] = 1;
  return table;
})();

/** Whether a run of text (with what may stand before it) holds a prefixed token with a random body. */
function inRun(text: string): boolean {
  for (const found of text.matchAll(PREFIXED)) if (looksRandom(found.groups?.secret ?? "")) return true;
  return false;
}

/** A body's character: `[A-Za-z0-9_.-]` (a character code of a text or a byte of a body). */
const isToken = (code: number) => code <= 0xff && TOKEN_BYTE[code] === 1;

/**
 * Whether `text` holds a prefixed token with a random body (`FORMAT_CANDIDATE`), by skipping: a body is
 * a run of 20 token characters or more, and such a run covers one place in every 20, so only those places
 * are read until one is a token character; then only its run is walked, and a run of 20 or more is tested
 * with the 14 places before it, where a prefix ending on `.` or `:` (not token characters) stands.
 */
export function holdsPrefixedToken(text: string): boolean {
  const n = text.length;
  for (let i = 19; i < n; i += 20) {
    if (!isToken(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isToken(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isToken(text.charCodeAt(end))) end++;
    if (end - start >= 20 && inRun(text.slice(Math.max(0, start - 14), end))) return true;
    i = end - 1;
  }
  return false;
}

/**
 * The same for a body's bytes (the recorder's scan), read as latin1 where a run is tested. Two loops, not
 * one walk over the text's codes or the bytes through callbacks: that one cost the scan more than both
 * (bench/history/performance-log.md, session 17).
 */
export function bytesHoldPrefixedToken(b: Buffer): boolean {
  const n = b.length;
  for (let i = 19; i < n; i += 20) {
    if (TOKEN_BYTE[b[i] as number] === 0) continue;
    let start = i;
    while (start > 0 && TOKEN_BYTE[b[start - 1] as number] === 1) start--;
    let end = i + 1;
    while (end < n && TOKEN_BYTE[b[end] as number] === 1) end++;
    if (end - start >= 20 && inRun(b.toString("latin1", Math.max(0, start - 14), end))) return true;
    i = end - 1;
  }
  return false;
}
