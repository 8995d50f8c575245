/**
 * The one scan a body passes before the recorder's fast paths may write it as it came (`raw-text.ts`:
 * its bytes as a literal block; `json-yaml.ts`: its JSON straight to YAML). It answers from the same lists
 * and shapes the general path redacts with, so that a body the fast paths write holds nothing the general
 * path would have replaced; a body it flags takes the general path and is redacted as always.
 *
 * One pass over the bytes does every test the fast paths used to run one after the other (the shapes'
 * candidates, the key filter, form pairs, escaped keys, the characters a literal block cannot hold): two
 * automata step side by side, the formats' words (the one `FORMAT_CANDIDATE` runs over text) and the
 * secret field names (`fields.ts`), and a counter follows capitals (an IBAN's two, then a look at the next two bytes). What they find is
 * then checked where it is (a name's place: `secretWord`). Card-number candidates (13 digits
 * or more) are looked for apart, by skipping: such a run covers one byte in every 13, so only those bytes
 * are read until one can be part of a run, and only that run is walked (`cardRun`). The last quote, which
 * a key's test needs, is looked for backwards when a name is found, not followed byte by byte. The byte
 * classes stay in this module: imported constants read once per byte cost 15–40% more time.
 */

import { FLAG, ROW } from "../../core/secrets/automaton.js";
import { FORMAT_WORD_AUTOMATON, FORMAT_WORD_START, formatWordAt } from "../../core/secrets/formats.js";
import { secretName } from "../../core/secrets/pairs.js";
import { bytesHoldPrefixedToken } from "../../core/secrets/token-shape.js";
import { BEARER_TAG, FORM_TAG, NAME_TAG } from "./fields.js";
import { asFieldName, keyName, namesItsValue } from "./named-pairs.js";
import { createRedactor, isSensitiveField, type Redactor } from "./redactor.js";

/** Whether the UTF-8 sequence at `i` is one a literal block cannot hold (C1, U+2028/9, BOM, U+FFFE/F). */
function notLiteralSequence(b: Buffer, i: number): boolean {
  const c = b[i];
  const d = b[i + 1];
  const e = b[i + 2];
  if (c === 0xc2) return d !== undefined && d >= 0x80 && d <= 0x9f;
  if (c === 0xe2) return d === 0x80 && (e === 0xa8 || e === 0xa9);
  return (d === 0xbb && e === 0xbf) || (d === 0xbf && (e === 0xbe || e === 0xbf));
}

/** What made the scan send a body to the general path (the first thing it met). */
export const SCAN_FINDINGS = [
  "not-literal",
  "secret-format",
  "card-candidate",
  "iban-candidate",
  "email",
  "secret-name",
  "form-secret",
  "escaped-secret-key",
  "known-secret",
] as const;
export type ScanFinding = (typeof SCAN_FINDINGS)[number];

/** What the scan tests besides what every fast path needs. */
export interface ScanOptions {
  /** Keys that name a secret however they are written (`"access_token":`, `"\u0061ccess_token":`). */
  readonly keys: boolean;
  /** Bytes a literal block holds as they are: no control character but tab and newline, no blank before a newline. */
  readonly literal: boolean;
}

/** Byte classes of the pass (digits, blanks and quotes are OTHER: the pass itself does not follow them). */
const OTHER = 0;
const CAPITAL = 2;
const NEWLINE = 4;
const CONTROL = 5;
const BACKSLASH = 6;
const AT = 7;
const LEAD = 9; // a UTF-8 lead byte of a character a literal block cannot hold (C1, U+2028/9, BOM, U+FFFE/F)

const CLASS = (() => {
  const table = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) table[c] = CONTROL;
  table[0x09] = OTHER;
  table[0x0a] = NEWLINE;
  table[0x7f] = CONTROL;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = CAPITAL;
  table[0x5c] = BACKSLASH;
  table[0x40] = AT;
  for (const lead of [0xc2, 0xe2, 0xef]) table[lead] = LEAD;
  return table;
})();

/** The bytes the pass looks at whatever the automata say: the names' automaton flags its steps on them. */
const LOOKED_AT: readonly number[] = [...CLASS.keys()].filter((c) => CLASS[c] !== OTHER);

/**
 * State the pass keeps beside its loop: the last quote known (`lastQuote`, before `quotesTo`, up to
 * which quotes were looked for), and where the next one is.
 */
interface Cursor {
  lastQuote: number;
  quotesTo: number;
  nextQuote: number;
}

/** Where the last quote before `i` is (-1: none). Asked at growing `i`: each byte is read once at most. */
function lastQuoteBefore(b: Buffer, i: number, at: Cursor): number {
  for (let k = i - 1; k >= at.quotesTo; k--) {
    if (b[k] === 0x22) {
      at.lastQuote = k;
      break;
    }
  }
  if (i > at.quotesTo) at.quotesTo = i;
  return at.lastQuote;
}

/**
 * Whether the word around `i` (a listed name was found ending there) is one the general path redacts:
 * placed as an XML element (`<password>`, `<ns:password>`), a pair (`password=`, `password: x`,
 * `"password": x`, `'password' => x`, `password%3D` in an encoded URL, `/password/x` in a path), a
 * command line's flag
 * (`--password x`), a key of JSON held in a string (`\"password\":`), or, with `keys`, a JSON key.
 * Also the word's end.
 */
function secretWord(
  b: Buffer,
  i: number,
  r: Redactor,
  keys: boolean,
  at: Cursor,
): { hit: boolean; end: number } {
  let start = i;
  while (start > 0 && nameChar(b[start - 1])) start--;
  // Up to two words before it, a blank apart, as the pairs' grammar reads a name (`Mot de passe: x`).
  let first = start;
  for (let words = 0; words < 2 && b[first - 1] === 0x20 && nameChar(b[first - 2]); words++) {
    first--;
    while (first > 0 && nameChar(b[first - 1])) first--;
  }
  let end = i + 1;
  while (end < b.length && nameChar(b[end])) end++;
  // A command line's flag: the dashes before the name, a blank (or a string's quote) before them and a
  // blank after it.
  let named = start;
  while (b[named] === 0x2d) named++;
  const opens = start === 0 || isBlank(b[start - 1]) || b[start - 1] === 0x22 || b[start - 1] === 0x27;
  const flag = named > start && opens && isBlank(b[end]);
  // The name's closing quote (`"password": x`, `'password' => x`, `\"password\": x`), then blanks.
  let k = end;
  if (b[k] === 0x5c) k++;
  if (b[k] === 0x22 || b[k] === 0x27 || b[k] === 0x60) k++;
  else k = end;
  while (isBlank(b[k])) k++;
  const before = b[start - 1];
  const placed =
    flag ||
    before === 0x3c || // <
    before === 0x3a || // : (a namespace prefix)
    b[k] === 0x3d || // =, also after blanks (`password = x` in a text)
    b[k] === 0x3a || // `password: x` in a text
    (b[end] === 0x25 && b[end + 1] === 0x33 && ((b[end + 2] ?? 0) | 0x20) === 0x64) || // %3D
    (before === 0x22 && b[start - 2] === 0x5c) || // \"
    (before === 0x2f && b[end] === 0x2f); // a path's segment: `/secret/…`
  const sensitive = { isSecret: (name: string) => isSensitiveField(name, r), mayName: () => true };
  if (placed && secretName(b.toString("latin1", first === start ? named : first, end), sensitive, "field"))
    return { hit: true, end };
  if (!keys) return { hit: false, end };
  // A JSON key: the string around the word, followed by blanks and `:`.
  const open = lastQuoteBefore(b, i, at);
  if (at.nextQuote < i) {
    const next = b.indexOf(0x22, i);
    at.nextQuote = next < 0 ? b.length : next;
  }
  const close = at.nextQuote;
  if (open < 0 || close >= b.length) return { hit: false, end };
  let after = close + 1;
  while (b[after] === 0x20 || b[after] === 0x09) after++;
  const name = keyName(b.toString("latin1", open + 1, close));
  if (b[after] === 0x3a) return { hit: isSensitiveField(name, r), end };
  // The value of a pair object's name (`{"name": "Access token", "value": …}`: named-pairs.ts).
  return { hit: namesAPair(b, open) && isSensitiveField(asFieldName(name), r), end };
}

/** Whether the string opening at `open` is the value of a `"name"` or `"key"` member (any case). */
function namesAPair(b: Buffer, open: number): boolean {
  let k = open - 1;
  while (isBlank(b[k])) k--;
  if (b[k] !== 0x3a) return false;
  k--;
  while (isBlank(b[k])) k--;
  if (b[k] !== 0x22) return false;
  const opened = b.lastIndexOf(0x22, k - 1);
  return opened >= 0 && namesItsValue(b.toString("latin1", opened + 1, k));
}

/**
 * Whether the string holding the backslash at `i` is a key that names a secret once its escapes are
 * decoded (`"\u0061ccess_token":`); also where that string ends (its other backslashes need no look).
 */
function escapedSecretKey(b: Buffer, i: number, r: Redactor, at: Cursor): { hit: boolean; end: number } {
  let k = i;
  while (k < b.length) {
    const c = b[k];
    if (c === 0x5c) k += 2;
    else if (c === 0x22 || c === 0x0a) break;
    else k++;
  }
  if (b[k] !== 0x22) return { hit: false, end: k };
  let after = k + 1;
  while (isBlank(b[after])) after++;
  const open = lastQuoteBefore(b, i, at);
  if (b[after] !== 0x3a || open < 0) return { hit: false, end: k + 1 };
  return { hit: isSensitiveField(keyName(b.toString("latin1", open + 1, k)), r), end: k + 1 };
}

/** Blanks as `\s` reads a byte (the old scans read bodies as latin1: 0xA0 is one). */
function isBlank(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0);
}

/** A character of a name (`client_secret`, `ns:password` without its prefix). */
function nameChar(c: number | undefined): boolean {
  return (
    c !== undefined &&
    ((c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x5f ||
      c === 0x2d ||
      c === 0x2e)
  );
}

/** Bytes of a card number's run: 1 for a digit, 2 for a separator (space or `-`), else 0. */
const RUN = (() => {
  const table = new Uint8Array(256);
  for (let c = 0x30; c <= 0x39; c++) table[c] = 1;
  table[0x20] = 2;
  table[0x2d] = 2;
  return table;
})();

/** The shortest run a card-number candidate is: 13 digits. */
const CARD_DIGITS = 13;

/**
 * Whether `b` holds a card-number candidate: 13 digits or more, a single space or `-` allowed between
 * two of them. Such a run spans 13 bytes or more, so it covers one of every 13 bytes read from 12 on: the
 * others are skipped until a byte read can be part of a run; then that whole stretch of digits and
 * separators is walked from its start, and reading goes on 13 bytes past its end.
 */
export function cardRun(b: Buffer): boolean {
  const n = b.length;
  let p = CARD_DIGITS - 1;
  while (p < n) {
    if (RUN[b[p] as number] === 0) {
      p += CARD_DIGITS;
      continue;
    }
    let k = p;
    while (k > 0 && RUN[b[k - 1] as number] !== 0) k--;
    let digits = 0;
    let separated = false;
    for (; k < n; k++) {
      const run = RUN[b[k] as number] as number;
      if (run === 1) {
        separated = false;
        if (++digits >= CARD_DIGITS) return true;
      } else if (run === 2 && digits > 0 && !separated) {
        separated = true;
      } else if (run === 2) {
        digits = 0;
        separated = false;
      } else break;
    }
    p = k + CARD_DIGITS;
  }
  return false;
}

/** A digit (an IBAN's candidate has two after its capitals). */
function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** What the formats' automaton found ending at `i` (its tag), checked where it is (`formatWordAt`). */
function formatFinding(tag: number, b: Buffer, i: number): ScanFinding | undefined {
  if (tag === 1) return "secret-format";
  const from = Math.max(0, i - 64);
  const text = b.toString("latin1", from, Math.min(b.length, i + 520));
  return formatWordAt(text, tag, i - from) ? "secret-format" : undefined;
}

/**
 * Steps both automata (their states in `steps`) from `from` to the first byte where either step is
 * flagged (a word ends, or a byte the pass looks at), and returns where that is (`b.length`: none). Most
 * bytes are read only here: a loop of its own compiles to far tighter code than the pass's.
 */
function nextFlagged(
  b: Buffer,
  from: number,
  steps: Int32Array,
  fNext: Int32Array,
  nNext: Int32Array,
): number {
  let f = steps[0] as number;
  let s = steps[1] as number;
  const n = b.length;
  let i = from;
  for (; i < n; i++) {
    const c = b[i] as number;
    f = fNext[(f & ROW) | c] as number;
    s = nNext[(s & ROW) | c] as number;
    if (((f | s) & FLAG) !== 0) break;
  }
  steps[0] = f;
  steps[1] = s;
  return i;
}

/** The pass itself: the first thing found, or undefined. Known secrets and cards are looked for by `scanBody`. */
function pass(b: Buffer, r: Redactor, options: ScanOptions): ScanFinding | undefined {
  const { next: fNext, tag: fTag } = FORMAT_WORD_AUTOMATON;
  const { next: nNext, tag: nTag } = r.fields.nameAutomaton(r.pii, LOOKED_AT);
  const { keys, literal } = options;
  const pii = r.pii;
  const at: Cursor = { lastQuote: -1, quotesTo: 0, nextQuote: -1 };
  const steps = new Int32Array(2);
  // The formats' automaton starts as after a line's end: a checked word's lead (`\n00…`) at the start.
  steps[0] = FORMAT_WORD_START;
  let capitals = 0;
  let last = -2;
  let wordsTo = 0;
  let escapesTo = 0;
  const n = b.length;
  for (
    let i = nextFlagged(b, 0, steps, fNext, nNext);
    i < n;
    i = nextFlagged(b, i + 1, steps, fNext, nNext)
  ) {
    const c = b[i] as number;
    // Capitals in a row: a byte skipped in between ends the row.
    if (i !== last + 1) capitals = 0;
    last = i;
    const ft = fTag[((steps[0] as number) & ROW) >> 8] as number;
    const nt = nTag[((steps[1] as number) & ROW) >> 8] as number;
    const kind = CLASS[c] as number;
    if (ft !== 0) {
      const found = formatFinding(ft, b, i);
      if (found) return found;
    }
    if (nt !== 0) {
      if (nt === FORM_TAG) return "form-secret";
      if (nt === BEARER_TAG && isBlank(b[i + 1])) return "secret-format";
      if (nt === NAME_TAG && i >= wordsTo) {
        const word = secretWord(b, i, r, keys, at);
        if (word.hit) return "secret-name";
        wordsTo = word.end;
      }
    }
    if (kind === CAPITAL) {
      // An IBAN's candidate: two capitals, then two digits.
      if (++capitals >= 2 && isDigit(b[i + 1]) && isDigit(b[i + 2])) return "iban-candidate";
      continue;
    }
    capitals = 0;
    if (kind === OTHER) continue;
    if (kind === NEWLINE) {
      if (literal && (b[i - 1] === 0x20 || b[i - 1] === 0x09)) return "not-literal";
    } else if (kind === CONTROL) {
      if (literal) return "not-literal";
    } else if (kind === LEAD) {
      if (literal && notLiteralSequence(b, i)) return "not-literal";
    } else if (kind === AT) {
      if (pii) return "email";
    } else if (kind === BACKSLASH && keys && i >= escapesTo) {
      const escaped = escapedSecretKey(b, i, r, at);
      if (escaped.hit) return "escaped-secret-key";
      escapesTo = escaped.end;
    }
  }
  return undefined;
}

/**
 * The scan of a body's bytes before a fast path writes them as they came: undefined when it holds
 * nothing the general path would replace, else what it found first (the body then takes the general
 * path). It flags secrets of a recognised shape (a known token format, a URL password, a JWT, a bearer
 * credential, a prefixed token with a random body; a card-number or IBAN candidate; an e-mail with `pii`), a secret name placed as an XML
 * element, a pair or a key of JSON held in a string, with `keys` a JSON key that names a secret however
 * it is written, any secret `r` met so far, and with `literal` what a literal block cannot hold.
 */
export function scanBody(bytes: Buffer, r: Redactor, options: ScanOptions): ScanFinding | undefined {
  const found = pass(bytes, r, options);
  if (found) return found;
  if (cardRun(bytes)) return "card-candidate";
  // A prefixed token with a random body: no literal word marks it (`core/secrets/token-shape.ts`).
  if (bytesHoldPrefixedToken(bytes)) return "secret-format";
  for (const secret of r.secrets.knownSecrets()) if (bytes.includes(secret)) return "known-secret";
  return undefined;
}

/**
 * Every branch of the pass taken at load, so that the optimising compiler has seen them all before it
 * compiles the loop. Without it, a branch first taken inside a megabyte threw the loop's optimised code
 * away, and what was compiled after that ran at about half the speed in one process out of two
 * (`scripts/scan-cpu.ts`: 4.2 or 8 ms per megabyte; with it, 4.0–4.2 in every run).
 */
function warmUp(): void {
  const r = createRedactor(undefined, true, false);
  const texts = [
    'x{"a":"b\\ny","\\u0061":1,"token":2} AB12 4111 1111 11-1 <t> t=1 t: é \u2028\u0085\ufeff\t\n',
    "://u:p@h bearer x ?code= PRIVATE KEY a@b \u0000",
    "12--3 4  5 12345678901234567890 4111 1111 1111 1111-1",
  ].map((text) => Buffer.from(text, "utf8"));
  for (let round = 0; round < 3; round++) {
    for (const text of texts) {
      for (let cut = 1; cut <= text.length; cut++) {
        pass(text.subarray(0, cut), r, { keys: true, literal: true });
        cardRun(text.subarray(0, cut));
      }
    }
  }
}
warmUp();
