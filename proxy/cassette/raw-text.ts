/**
 * A large text body written into the cassette as the very bytes it came as, never decoded nor re-encoded:
 * the fast path for large bodies (a megabyte of JSON or CSV costs milliseconds to decode, redact and
 * encode again). It is written as a literal block (`text: |-`), byte for byte what the emitter writes for
 * the same text (`yaml-scalar.ts`), so it reads back as the same text and a reader cannot tell the paths
 * apart.
 */
import { isUtf8 } from "node:buffer";
import type { Redactor } from "../redaction/redactor.js";
import { scanBody } from "../redaction/scan.js";
import { YamlBlock } from "./yaml-block.js";
import { pad } from "./yaml-scalar.js";

const NEWLINE = 0x0a;

/** Whether a byte is a blank a literal block cannot start or end its text with. */
function blank(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * `text`'s lines, each but the empty ones led by `indent` spaces, joined by newlines: one copy, byte by
 * byte (a native copy per line costs more than the line itself: 87,000 lines of pretty JSON took 12 ms).
 */
function indented(text: Buffer, indent: number): Buffer {
  const n = text.length;
  let lines = 1;
  for (let i = 0; i < n; i++) if (text[i] === NEWLINE) lines++;
  const out = Buffer.allocUnsafe(n + lines * indent);
  let o = 0;
  let lineStart = true;
  for (let i = 0; i < n; i++) {
    const c = text[i] as number;
    if (lineStart && c !== NEWLINE) for (let k = 0; k < indent; k++) out[o++] = 0x20;
    out[o++] = c;
    lineStart = c === NEWLINE;
  }
  return out.subarray(0, o);
}

/**
 * The bytes as the literal block of a value at `indent`, when they can be written so and hold nothing to
 * redact: valid UTF-8, not starting with a blank or a newline, no blank before a newline or at the end,
 * no character a literal block cannot hold, and nothing the body scan flags (`scan.ts`: a field `r` must
 * redact however its key is written, secrets of a recognised shape, a secret `r` met so far). Otherwise
 * undefined: the body takes the general path. One line is kept as its very buffer; several are copied
 * once, each led by its indentation.
 */
export function rawText(bytes: Buffer, r: Redactor, indent: number): YamlBlock | undefined {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === NEWLINE) end--;
  const first = bytes[0];
  if (end === 0 || blank(first) || first === NEWLINE || blank(bytes[end - 1])) return undefined;
  if (!isUtf8(bytes) || scanBody(bytes, r, { keys: true, literal: true }) !== undefined) return undefined;
  const trailing = bytes.length - end;
  const header = trailing === 0 ? "|-" : trailing === 1 ? "|" : "|+";
  const tail = Buffer.alloc(Math.max(1, trailing), NEWLINE);
  const text = bytes.subarray(0, end);
  if (text.indexOf(NEWLINE) < 0) {
    return new YamlBlock([Buffer.from(` ${header}\n${pad(indent)}`, "latin1"), text, tail], indent);
  }
  return new YamlBlock([Buffer.from(` ${header}\n`, "latin1"), indented(text, indent), tail], indent);
}
