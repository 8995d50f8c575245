import { isAscii, isUtf8 } from "node:buffer";
import { isKeyChar, PII_WORDS, SECRET_WORDS } from "../redaction/json-text.js";

/**
 * A long single line of text written into the cassette as the very bytes it came as, never decoded nor
 * re-encoded: the fast path for large bodies (a megabyte of JSON costs milliseconds to decode, redact and
 * encode again). The emitter writes it as a literal block (`text: |-`), which reads back as the same text.
 */
export class RawText {
  constructor(
    readonly bytes: Buffer,
    /** The text ends with one newline (then `bytes` stop before it and the block is `|`, not `|-`). */
    readonly trailingNewline: boolean,
  ) {}
}

/** Bytes a literal block cannot hold as they are: control characters, C1 controls, U+2028/9, BOM, U+FFFE/F. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const UNSAFE = /[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]/;

/** The same for ASCII text (a test of one character class runs about twice as fast). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const UNSAFE_ASCII = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Words of a field name that may need redacting: the same as redacting JSON text looks for. */
const SECRET_KEY_WORDS = new RegExp(SECRET_WORDS, "gi");
const PII_KEY_WORDS = new RegExp(`${SECRET_WORDS}|${PII_WORDS}`, "gi");

/** Whether some key of the JSON-like text, holding one of the words, is one `sensitive` says needs redacting. */
function hasSensitiveKey(view: string, words: RegExp, sensitive: (key: string) => boolean): boolean {
  const pattern = new RegExp(words.source, "gi");
  for (const found of view.matchAll(pattern)) {
    let start = found.index;
    while (start > 0 && isKeyChar(view.charCodeAt(start - 1))) start--;
    let end = found.index + found[0].length;
    while (end < view.length && isKeyChar(view.charCodeAt(end))) end++;
    if (view.charCodeAt(start - 1) !== 0x22 || view.charCodeAt(end) !== 0x22) continue;
    let after = end + 1;
    while (view.charCodeAt(after) === 0x20 || view.charCodeAt(after) === 0x09) after++;
    if (view.charCodeAt(after) === 0x3a && sensitive(view.slice(start, end))) return true;
  }
  return false;
}

/**
 * The bytes as a `RawText` when they can be written verbatim and hold nothing to redact: valid UTF-8,
 * one line (a single final newline allowed), no character a literal block cannot hold, no leading or
 * trailing blank, no field `sensitive` names a secret (or, with `pii`, personal data), and none of the
 * secrets already met. Otherwise undefined: the body takes the ordinary path.
 */
export function rawLine(
  bytes: Buffer,
  knownSecrets: Iterable<string>,
  sensitive: (key: string) => boolean,
  pii: boolean,
): RawText | undefined {
  const trailingNewline = bytes[bytes.length - 1] === 0x0a;
  const line = trailingNewline ? bytes.subarray(0, bytes.length - 1) : bytes;
  const first = line[0];
  const last = line[line.length - 1];
  if (first === undefined || first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09)
    return undefined;
  const ascii = isAscii(line);
  if (!ascii && !isUtf8(line)) return undefined;
  const view = line.toString("latin1");
  if (
    (ascii ? UNSAFE_ASCII : UNSAFE).test(view) ||
    hasSensitiveKey(view, pii ? PII_KEY_WORDS : SECRET_KEY_WORDS, sensitive)
  )
    return undefined;
  for (const secret of knownSecrets) if (line.includes(secret)) return undefined;
  return new RawText(line, trailingNewline);
}
