/**
 * How a recorded body goes into a cassette, in one place: record → encode (with redaction) → cassette.
 * A body is first made ready (decompressed when its `content-encoding` says so: the one step that may
 * wait), then, once the rest of its message is redacted (so that the secrets of its headers are known),
 * encoded: written straight to YAML by a fast path when it has nothing to redact, else stored, redacted.
 */

import { isUtf8 } from "node:buffer";
import { contentCoding } from "../../core/http/coding.js";
import { isJsonCandidate, isJsonType, JSON_MAP_LIMIT, storeBody, storeBodyNow } from "../cassette/body.js";
import type { StoredBody, StoredHeaders } from "../cassette/format.js";
import { JsonToYaml } from "../cassette/json-yaml.js";
import type { WritableBody } from "../cassette/writer.js";
import { pad, YamlBlock } from "../cassette/yaml-scalar.js";
import { firstHeader } from "../http/message.js";
import { asFieldName } from "../redaction/named-pairs.js";
import { redactBody } from "../redaction/redact.js";
import { isSensitiveField, type Redactor } from "../redaction/redactor.js";
import { scanBody } from "../redaction/scan.js";
import { structureNamesSecret } from "../redaction/text-body.js";

/**
 * A large text body written into the cassette as the very bytes it came as, never decoded nor re-encoded:
 * the fast path for large bodies (a megabyte of JSON or CSV costs milliseconds to decode, redact and
 * encode again). It is written as a literal block (`text: |-`), byte for byte what the emitter writes for
 * the same text (`yaml-scalar.ts`), so it reads back as the same text and a reader cannot tell the paths
 * apart.
 */

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

/** A body made ready: its bytes as they came, or its stored form when they had to be decompressed first. */
export type ReadyBody = { readonly wire: Buffer } | { readonly stored: StoredBody | undefined };

/** Where `request.body.json` and `response.body.json` sit in a cassette document. */
const BODY_INDENT = 6;

function isTextual(type: string | undefined): boolean {
  return type !== undefined && (isJsonType(type) || type.toLowerCase().startsWith("text/"));
}

/**
 * Makes a captured body ready for encoding: its bytes as they came when no decompression is needed, else
 * (once decoded) its stored form; bytes that fail to decode are stored as they came.
 */
export function readyBody(wire: Buffer, headers: StoredHeaders): ReadyBody | Promise<ReadyBody> {
  const coding = firstHeader(headers, "content-encoding");
  if (contentCoding(coding) === undefined) return { wire };
  return storeBody(wire, firstHeader(headers, "content-type"), coding).then((stored) => ({ stored }));
}

/**
 * Encodes bodies for the cassette with one redactor, the recorder's: it owns the fast paths (a large text
 * body kept as its bytes, `rawText` above; canonical JSON written straight to YAML, `json-yaml.ts`), each
 * taken only when the body scan (`scanBody`) finds nothing to redact, and falls back to the general one
 * (stored, then redacted) whenever a fast path declines.
 */
export class BodyEncoder {
  private readonly yaml: JsonToYaml;

  constructor(private readonly redactor: Redactor) {
    this.yaml = new JsonToYaml(
      (key) => isSensitiveField(key, redactor),
      (name) => isSensitiveField(asFieldName(name), redactor),
    );
  }

  /**
   * A body as the cassette gets it, redacted. Call it once the message's headers are redacted: the fast
   * paths decline bodies holding a secret met so far, theirs included. `headers` are the message's own.
   */
  encode(body: ReadyBody, headers: StoredHeaders): WritableBody | undefined {
    if ("stored" in body) return this.redacted(body.stored, headers);
    const { wire } = body;
    const type = firstHeader(headers, "content-type");
    const coding = firstHeader(headers, "content-encoding");
    // Text above the size JSON stops being a map at is stored as text: its bytes as they came, if clean.
    if (
      wire.length > JSON_MAP_LIMIT &&
      coding === undefined &&
      isTextual(type) &&
      !structureNamesSecret(wire, type, this.redactor)
    ) {
      const raw = rawText(wire, this.redactor, BODY_INDENT);
      if (raw) return { text: raw };
    }
    if (
      isJsonCandidate(wire, type, coding) &&
      scanBody(wire, this.redactor, { keys: false, literal: false }) === undefined
    ) {
      // The scan looked for the secrets met so far too; the transcoder judges the keys itself.
      const yaml = this.yaml.transcode(wire, BODY_INDENT);
      if (yaml) return { json: yaml };
    }
    return this.store(body, headers);
  }

  /** A body in stored form, redacted, never by a fast path (a notification's body is re-signed from it). */
  store(body: ReadyBody, headers: StoredHeaders): StoredBody | undefined {
    if ("stored" in body) return this.redacted(body.stored, headers);
    const type = firstHeader(headers, "content-type");
    const now = storeBodyNow(body.wire, type, firstHeader(headers, "content-encoding"));
    // `readyBody` decompresses every body that needs it: what is left is stored as it is.
    if (now === "decode") throw new Error("a compressed body reached the encoder undecoded");
    return this.redacted(now, headers);
  }

  private redacted(body: StoredBody | undefined, headers: StoredHeaders): StoredBody | undefined {
    return redactBody(body, firstHeader(headers, "content-type"), this.redactor);
  }
}
