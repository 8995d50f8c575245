/**
 * A long single line of text written into the cassette as the very bytes it came as, never decoded nor
 * re-encoded: the fast path for large bodies (a megabyte of JSON costs milliseconds to decode, redact and
 * encode again). It is written as a literal block (`text: |-`), which reads back as the same text.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { fastPathDeclines } from "../redaction/fast-path.js";
import type { Redactor } from "../redaction/redactor.js";
import { YamlBlock } from "./yaml-block.js";
import { pad } from "./yaml-scalar.js";

const NEWLINE = Buffer.from("\n");

/** Bytes a literal block cannot hold as they are: control characters, C1 controls, U+2028/9, BOM, U+FFFE/F. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const UNSAFE = /[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]/;

/** The same for ASCII text (a test of one character class runs about twice as fast). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const UNSAFE_ASCII = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * The bytes as the literal block of a value at `indent`, its one line the bytes as they are, when they
 * can be written so and hold nothing to redact: valid UTF-8, one line (a single final newline allowed),
 * no character a literal block cannot hold, no leading or trailing blank, nothing the fast paths' test
 * declines (`fast-path.ts`: a field `r` must redact however its key is written, secrets of a recognised
 * shape), and none of the secrets `r` met so far. Otherwise undefined: the body takes the ordinary path.
 */
export function rawLine(bytes: Buffer, r: Redactor, indent: number): YamlBlock | undefined {
  const trailingNewline = bytes[bytes.length - 1] === 0x0a;
  const line = trailingNewline ? bytes.subarray(0, bytes.length - 1) : bytes;
  const first = line[0];
  const last = line[line.length - 1];
  if (first === undefined || first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09)
    return undefined;
  const ascii = isAscii(line);
  if (!ascii && !isUtf8(line)) return undefined;
  const view = line.toString("latin1");
  if ((ascii ? UNSAFE_ASCII : UNSAFE).test(view) || fastPathDeclines(view, r, true)) return undefined;
  for (const secret of r.secrets.knownSecrets()) if (line.includes(secret)) return undefined;
  const head = Buffer.from(` ${trailingNewline ? "|" : "|-"}\n${pad(indent)}`, "latin1");
  return new YamlBlock([head, line, NEWLINE], indent);
}
