/**
 * The one scan a body passes before the recorder's fast paths may write it as it came (`raw-text.ts`:
 * its bytes as a literal block; `json-yaml.ts`: its JSON straight to YAML). It answers from the same lists
 * and shapes the general path redacts with, so that a body the fast paths write holds nothing the general
 * path would have replaced; a body it flags takes the general path and is redacted as always.
 *
 * One pass over the bytes does every test the fast paths used to run one after the other (the shapes'
 * candidates, the key filter, form pairs, escaped keys, the characters a literal block cannot hold): two
 * automata (`scan-words.ts`) step side by side, the formats' literal words and the secret field names,
 * and a few counters follow digit runs and capitals. What they find is then checked where it is. The byte
 * classes stay in this module: imported constants read once per byte cost 15–40% more time.
 */
import { URL_PASSWORD_REST } from "../../core/secrets/formats.js";
import { createRedactor, isSensitiveField, type Redactor } from "./redactor.js";
import {
  BEARER_TAG,
  FORM_TAG,
  FORMAT_TAG,
  FORMATS,
  isBlank,
  keyName,
  NAME_TAG,
  nameChar,
  namesAutomaton,
  notLiteralSequence,
} from "./scan-words.js";

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

/** Byte classes of the pass. */
const OTHER = 0;
const DIGIT = 1;
const CAPITAL = 2;
const SEPARATOR = 3; // space or `-`, between the digits of a card number
const NEWLINE = 4;
const CONTROL = 5;
const BACKSLASH = 6;
const AT = 7;
const QUOTE = 8;
const LEAD = 9; // a UTF-8 lead byte of a character a literal block cannot hold (C1, U+2028/9, BOM, U+FFFE/F)

const CLASS = (() => {
  const table = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) table[c] = CONTROL;
  table[0x09] = OTHER;
  table[0x0a] = NEWLINE;
  table[0x7f] = CONTROL;
  for (let c = 0x30; c <= 0x39; c++) table[c] = DIGIT;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = CAPITAL;
  table[0x20] = SEPARATOR;
  table[0x2d] = SEPARATOR;
  table[0x5c] = BACKSLASH;
  table[0x40] = AT;
  table[0x22] = QUOTE;
  for (const lead of [0xc2, 0xe2, 0xef]) table[lead] = LEAD;
  return table;
})();

/** State the pass keeps beside its loop: where the last quote was, where the next one is. */
interface Cursor {
  lastQuote: number;
  nextQuote: number;
}

/**
 * Whether the word around `i` (a listed name was found ending there) is one the general path redacts:
 * placed as an XML element (`<password>`, `<ns:password>`), a pair (`password=`, `password: x`), a key of
 * JSON held in a string (`\"password\":`), or, with `keys`, a JSON key. Also the word's end.
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
  let end = i + 1;
  while (end < b.length && nameChar(b[end])) end++;
  let k = end;
  while (isBlank(b[k])) k++;
  const before = b[start - 1];
  const placed =
    before === 0x3c || // <
    before === 0x3a || // : (a namespace prefix)
    b[k] === 0x3d || // =, also after blanks (`password = x` in a text)
    b[k] === 0x3a || // `password: x` in a text
    (before === 0x22 && b[start - 2] === 0x5c); // \"
  if (placed && isSensitiveField(b.toString("latin1", start, end), r)) return { hit: true, end };
  if (!keys) return { hit: false, end };
  // A JSON key: the string around the word, followed by blanks and `:`.
  const open = at.lastQuote;
  if (at.nextQuote < i) {
    const next = b.indexOf(0x22, i);
    at.nextQuote = next < 0 ? b.length : next;
  }
  const close = at.nextQuote;
  if (open < 0 || close >= b.length) return { hit: false, end };
  let after = close + 1;
  while (b[after] === 0x20 || b[after] === 0x09) after++;
  const hit = b[after] === 0x3a && isSensitiveField(keyName(b.toString("latin1", open + 1, close)), r);
  return { hit, end };
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
  if (b[after] !== 0x3a || at.lastQuote < 0) return { hit: false, end: k + 1 };
  return { hit: isSensitiveField(keyName(b.toString("latin1", at.lastQuote + 1, k)), r), end: k + 1 };
}

/** What the formats' automaton found ending at `i`, checked where it is; undefined when nothing. */
function formatFinding(tag: number, b: Buffer, i: number): ScanFinding | undefined {
  if (tag === FORMAT_TAG) return "secret-format";
  const rest = b.toString("latin1", i + 1, Math.min(b.length, i + 520));
  return URL_PASSWORD_REST.test(rest) ? "secret-format" : undefined;
}

/** The pass itself: the first thing found, or undefined. Known secrets are looked for by `scanBody`. */
function pass(b: Buffer, r: Redactor, options: ScanOptions): ScanFinding | undefined {
  const { next: fNext, tag: fTag } = FORMATS;
  const { next: nNext, tag: nTag } = r.fields.nameAutomaton(r.pii, namesAutomaton);
  const { keys, literal } = options;
  const pii = r.pii;
  const at: Cursor = { lastQuote: -1, nextQuote: -1 };
  let f = 0;
  let s = 0;
  let digits = 0;
  let separated = false;
  let capitals = 0;
  let ibanDigits = 0;
  let wordsTo = 0;
  let escapesTo = 0;
  const n = b.length;
  for (let i = 0; i < n; i++) {
    const c = b[i] as number;
    f = fNext[f | c] as number;
    s = nNext[s | c] as number;
    const ft = fTag[f >> 8] as number;
    const nt = nTag[s >> 8] as number;
    const kind = CLASS[c] as number;
    // Most bytes: no word ends here, nothing to follow.
    if ((ft | nt | kind) === 0) {
      digits = 0;
      separated = false;
      capitals = 0;
      ibanDigits = 0;
      continue;
    }
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
    if (kind === DIGIT) {
      separated = false;
      if (++digits >= 13) return "card-candidate";
      ibanDigits = ibanDigits > 0 ? ibanDigits + 1 : capitals >= 2 ? 1 : 0;
      capitals = 0;
      if (ibanDigits >= 2) return "iban-candidate";
      continue;
    }
    if (kind === CAPITAL) {
      digits = 0;
      separated = false;
      capitals++;
      ibanDigits = 0;
      continue;
    }
    capitals = 0;
    ibanDigits = 0;
    if (kind === SEPARATOR && digits > 0 && !separated) {
      separated = true;
      continue;
    }
    digits = 0;
    separated = false;
    if (kind === OTHER) continue;
    if (kind === QUOTE) at.lastQuote = i;
    else if (kind === NEWLINE) {
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
 * credential; a card-number or IBAN candidate; an e-mail with `pii`), a secret name placed as an XML
 * element, a pair or a key of JSON held in a string, with `keys` a JSON key that names a secret however
 * it is written, any secret `r` met so far, and with `literal` what a literal block cannot hold.
 */
export function scanBody(bytes: Buffer, r: Redactor, options: ScanOptions): ScanFinding | undefined {
  const found = pass(bytes, r, options);
  if (found) return found;
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
  ].map((text) => Buffer.from(text, "utf8"));
  for (let round = 0; round < 3; round++) {
    for (const text of texts) {
      for (let cut = 1; cut <= text.length; cut++) {
        pass(text.subarray(0, cut), r, { keys: true, literal: true });
      }
    }
  }
}
warmUp();
