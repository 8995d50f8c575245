import { closeSync, fstatSync, ftruncateSync, openSync, renameSync, unlinkSync } from "node:fs";
import * as zlib from "node:zlib";
import { AssopayError } from "../../core/errors.js";
import { writevAllSync } from "../cassette/writer.js";
import type { CapturedBody, CapturedExchange } from "./capture.js";

/** CRC-32 (IEEE, as zlib and gzip compute it) of `bytes`, continuing from `previous`. */
export type Crc32 = (bytes: Uint8Array, previous?: number) => number;

/**
 * The same CRC-32 in JavaScript, byte at a time (reflected polynomial 0xEDB88320), for the Node versions
 * whose zlib lacks `crc32` (before 20.15 and 22.2). Exported for the test that checks both agree.
 */
export function portableCrc32(): Crc32 {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return (bytes, previous = 0) => {
    let c = ~previous >>> 0;
    for (let i = 0; i < bytes.length; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    return ~c >>> 0;
  };
}

const inner: Crc32 =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32: Crc32 }).crc32
    : portableCrc32();

/**
 * `zlib.crc32` where this Node has it (native code), else the portable one: both give the same value.
 * Empty input is answered here: Node 20's `zlib.crc32` returns 0, not `previous`, for an empty buffer
 * whose memory is a zero-length `ArrayBuffer` (the recorder's empty request bodies are such buffers).
 */
export const crc32: Crc32 = (bytes, previous = 0) =>
  bytes.length === 0 ? previous >>> 0 : inner(bytes, previous);

/**
 * The frame format of the recording journal (see `Journal`, below). A frame (`AJ02`):
 *
 * | bytes | what                                                                  |
 * | ----- | --------------------------------------------------------------------- |
 * | 0-3   | the magic `AJ02`                                                      |
 * | 4-15  | three 32-bit little-endian lengths: metadata JSON, request body, response body |
 * | 16-19 | CRC-32 of the metadata and both bodies, in that order                 |
 * | 20-23 | CRC-32 of bytes 0-19 (the head itself)                                |
 *
 * then the metadata's JSON and the two bodies. The head's own checksum lets a damaged length be told
 * from a frame cut short without reading what it claims; the other makes a flipped byte in the metadata
 * or a body a damaged frame rather than a wrong exchange. Frames written by the previous version (`AJ01`:
 * the magic and the three lengths, no checksum) are still read.
 */
export const MAGIC = Buffer.from("AJ02", "latin1");
const MAGIC_V2 = MAGIC.readUInt32LE(0);
const MAGIC_V1 = Buffer.from("AJ01", "latin1").readUInt32LE(0);
export const HEAD = 24;
const HEAD_V1 = 16;
/** The longest metadata a frame may claim: headers and a URL, far below this. */
const MAX_META = 16 * 1024 * 1024;

/** A frame's metadata (JSON): the exchange but for its bodies, its start as a number, and its interaction id. */
export type FrameMeta = Omit<CapturedExchange, "requestBody" | "responseBody" | "startedAt"> & {
  startedAt: number;
  /** The interaction id it gets in the cassette (given on the proxy's thread, in journal order). */
  id: number;
};

/** The metadata's JSON text of `exchange`, which becomes interaction `id`. */
export function frameMeta(id: number, exchange: CapturedExchange<CapturedBody>): string {
  const { requestBody: _request, responseBody: _response, startedAt, ...rest } = exchange;
  const meta: FrameMeta = { ...rest, startedAt: startedAt.getTime(), id };
  return JSON.stringify(meta);
}

/** One exchange read back from a journal, with the interaction id it was given. */
export interface JournalEntry {
  id: number;
  exchange: CapturedExchange;
}

/** A frame's head, read: where its parts lie, and whether the head holds. */
export type FrameHead =
  | {
      ok: true;
      head: number;
      meta: number;
      request: number;
      response: number;
      /** The checksum of the rest (undefined for an `AJ01` frame, which has none). */
      crc: number | undefined;
    }
  | { ok: false; why: string };

/** The head length the magic at `at` calls for (0 when it is no magic). */
export function headLength(bytes: Buffer, at: number): number {
  if (at + 4 > bytes.length) return 0;
  const word = bytes.readUInt32LE(at);
  return word === MAGIC_V2 ? HEAD : word === MAGIC_V1 ? HEAD_V1 : 0;
}

/**
 * Reads the head at `at` of `bytes`, `available` bytes of the journal lying from `at` on (`bytes` hold
 * the head, when the journal does): where the frame's parts lie, `short` when the journal ends inside the
 * frame, or why the head does not hold (a frame may not claim more than `max` bytes).
 */
export function readHead(
  bytes: Buffer,
  at: number,
  available: number,
  max = Number.POSITIVE_INFINITY,
): FrameHead | "short" {
  const length = headLength(bytes, at);
  if (length === 0) return { ok: false, why: "no frame starts there" };
  if (available < length) return "short";
  const meta = bytes.readUInt32LE(at + 4);
  const request = bytes.readUInt32LE(at + 8);
  const response = bytes.readUInt32LE(at + 12);
  let head: FrameHead;
  if (length === HEAD) {
    if (crc32(bytes.subarray(at, at + 20)) !== bytes.readUInt32LE(at + 20))
      return { ok: false, why: "its head fails its checksum" };
    head = { ok: true, head: HEAD, meta, request, response, crc: bytes.readUInt32LE(at + 16) };
  } else {
    if (meta > MAX_META) return { ok: false, why: "its head claims an impossible length" };
    head = { ok: true, head: HEAD_V1, meta, request, response, crc: undefined };
  }
  if (frameLength(head) > max) return { ok: false, why: "its head claims more bytes than a frame may hold" };
  return frameLength(head) > available ? "short" : head;
}

/** A frame's whole length, head included. */
export function frameLength(head: Extract<FrameHead, { ok: true }>): number {
  return head.head + head.meta + head.request + head.response;
}

/**
 * The entry in `rest` (the frame's bytes after its head), or why it is damaged. Bodies are views of
 * `rest`, not copies. `id` is the exchange's id when the metadata could still be read.
 */
export function readEntry(
  head: Extract<FrameHead, { ok: true }>,
  rest: Buffer,
  verify = true,
): { entry: JournalEntry } | { why: string; id: number | undefined } {
  const metaText = rest.toString("utf8", 0, head.meta);
  let meta: FrameMeta | undefined;
  try {
    meta = JSON.parse(metaText) as FrameMeta;
  } catch {
    meta = undefined;
  }
  const id = typeof meta?.id === "number" ? meta.id : undefined;
  if (verify && head.crc !== undefined && crc32(rest) !== head.crc)
    return { why: "its metadata or a body fails its checksum", id };
  if (meta === undefined || typeof meta.id !== "number")
    return { why: "its metadata is not readable", id: undefined };
  const requestEnd = head.meta + head.request;
  const { id: given, startedAt, ...exchange } = meta;
  return {
    entry: {
      id: given,
      exchange: {
        ...exchange,
        startedAt: new Date(startedAt),
        requestBody: rest.subarray(head.meta, requestEnd),
        responseBody: rest.subarray(requestEnd, requestEnd + head.response),
      },
    },
  };
}

/**
 * The start of a frame holding `meta` (its JSON text) and the two bodies: the head, checksums included,
 * and the metadata's bytes after it, in one buffer (the bodies follow it in the journal, not copied).
 */
export function frameStart(meta: string, request: readonly Buffer[], response: readonly Buffer[]): Buffer {
  const start = Buffer.allocUnsafe(HEAD + Buffer.byteLength(meta, "utf8"));
  const metaLength = start.write(meta, HEAD, "utf8");
  let crc = crc32(start.subarray(HEAD));
  let requestLength = 0;
  let responseLength = 0;
  for (const part of request) {
    crc = crc32(part, crc);
    requestLength += part.length;
  }
  for (const part of response) {
    crc = crc32(part, crc);
    responseLength += part.length;
  }
  start.writeUInt32LE(MAGIC_V2, 0);
  start.writeUInt32LE(metaLength, 4);
  start.writeUInt32LE(requestLength, 8);
  start.writeUInt32LE(responseLength, 12);
  start.writeUInt32LE(crc, 16);
  start.writeUInt32LE(crc32(start.subarray(0, 20)), 20);
  return start;
}

/**
 * The frames of `bytes` (a stretch of the journal written whole), in order, and where the first frame
 * that is incomplete or damaged starts (the end, when every frame is whole and sound). Bodies are views
 * of `bytes`, not copies. The recorder's worker reads its journal with this. `verify: false` skips the
 * checksum over each frame's metadata and bodies (each head's own is still checked): for the worker,
 * which reads what its own process wrote moments before, through the page cache; the checksums are for
 * journals left by a crash.
 */
export function parseFrames(bytes: Buffer, verify = true): { entries: JournalEntry[]; end: number } {
  const entries: JournalEntry[] = [];
  let from = 0;
  for (;;) {
    const head = readHead(bytes, from, bytes.length - from);
    if (head === "short" || !head.ok) break;
    const end = from + frameLength(head);
    const read = readEntry(head, bytes.subarray(from + head.head, end), verify);
    if (!("entry" in read)) break;
    entries.push(read.entry);
    from = end;
  }
  return { entries, end: from };
}

/**
 * The write-ahead journal of a recording: `<file>.journal`, next to the file being written. Every exchange
 * is appended to it on the proxy's thread, raw (not yet redacted), in one `writev(2)`, before the proxy
 * ends its response; the worker reads it back from the file and turns it into YAML later (see
 * `JournalTail`, `worker.ts`), so the journal is the only queue between the two threads. Once everything
 * journaled is in the cassette, the journal is emptied. Under traffic that never lets the worker catch up
 * it is sealed instead once it reaches 16 MiB (the lag bound, `worker-host.ts`): renamed
 * `<file>.journal.sealed`, while a new `<file>.journal` takes the next exchanges; the sealed one is
 * deleted once the worker has converted all of it. On a clean stop both are deleted. Journals left
 * behind (the recorder was killed) are folded into the cassette by the next program that opens it, a
 * reader or a recorder, the sealed one first; recovery reads them as streams, skipping damaged frames
 * (`scanJournal`, `recover.ts`). Its frame format is above.
 */
const JOURNAL_SUFFIX = ".journal";

/** The suffix of a journal sealed at its mark, until the worker has converted all of it. */
const SEALED_SUFFIX = ".journal.sealed";

/** The journals of `file`, in the order their exchanges were recorded: the sealed one, then the open one. */
export function journalPaths(file: string): readonly [sealed: string, open: string] {
  return [`${file}${SEALED_SUFFIX}`, `${file}${JOURNAL_SUFFIX}`];
}

/** A journal opened for appending (mode 0600: it holds secrets not yet redacted). */
export class Journal {
  readonly path: string;
  private readonly fd: number;
  private failed = false;
  private written: number;

  /** `file`: the file being recorded, whose journal this is. */
  private constructor(private readonly file: string) {
    this.path = journalPaths(file)[1];
    this.fd = openSync(this.path, "a", 0o600);
    this.written = fstatSync(this.fd).size;
  }

  /** Opens (creating it when missing) the journal of `file`. */
  static open(file: string): Journal {
    return new Journal(file);
  }

  /** The journal's length in bytes: where the next frame starts. */
  get size(): number {
    return this.written;
  }

  /** Whether a write has failed (nothing more is journaled then). */
  get broken(): boolean {
    return this.failed;
  }

  /**
   * Appends one exchange; its metadata comes already as JSON text. Throws an `AssopayError` when the
   * journal cannot be written (a full disk): what a failed write left of the frame is cut off again where
   * possible, and nothing more is appended.
   */
  append(meta: string, request: CapturedBody, response: CapturedBody): void {
    if (this.failed) throw this.unwritable(new Error("an earlier write failed"));
    const requestParts = Buffer.isBuffer(request) ? [request] : request;
    const responseParts = Buffer.isBuffer(response) ? [response] : response;
    const parts = [frameStart(meta, requestParts, responseParts), ...requestParts, ...responseParts];
    try {
      this.written += writevAllSync(this.fd, parts);
    } catch (error) {
      this.failed = true;
      try {
        ftruncateSync(this.fd, this.written);
      } catch {
        // the frame stays cut short: recovery drops a last frame cut short
      }
      throw this.unwritable(error);
    }
  }

  private unwritable(cause: unknown): AssopayError {
    const why = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    return new AssopayError(
      "bad-input",
      `cannot write the journal ${this.path} (${why}): recording stopped; new requests get 503 and are not forwarded`,
      {
        hint: "the journal sits beside the cassette: free space on that disk (or let this user write there), then start assopay record again on the same cassette; every exchange a client received is in the cassette or its journal, and that start folds the journal in",
        cause,
      },
    );
  }

  /**
   * Seals this journal: renames it `<file>.journal.sealed` (an earlier sealed one is converted by then,
   * and replaced) and returns that name and a new, empty journal in its place; this one is closed. Throws
   * an `AssopayError` when the rename or the new file fails: this one stays open (its `close` closes it)
   * and nothing more is appended to it.
   */
  seal(): { sealed: string; next: Journal } {
    if (this.failed) throw this.unwritable(new Error("an earlier write failed"));
    const [sealed] = journalPaths(this.file);
    let next: Journal;
    try {
      renameSync(this.path, sealed);
      next = new Journal(this.file);
    } catch (error) {
      this.failed = true;
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new AssopayError(
        "bad-input",
        `cannot seal the journal ${this.path} as ${sealed} (${why}): recording stopped; new requests get 503 and are not forwarded`,
        {
          hint: `move whatever is at ${sealed} out of the way (or free space on that disk), then start assopay record again on the same cassette; every exchange a client received is in the cassette or its journals, and that start folds them in`,
          cause: error,
        },
      );
    }
    try {
      closeSync(this.fd);
    } catch {
      // everything written is in the file already; the new journal takes the next exchanges
    }
    return { sealed, next };
  }

  /** Empties the journal: everything in it is in the cassette. */
  clear(): void {
    if (this.failed) return;
    try {
      ftruncateSync(this.fd, 0);
      this.written = 0;
    } catch {
      this.failed = true;
    }
  }

  /** Closes the journal; `remove` deletes it too (everything in it is in the cassette). */
  close(remove: boolean): void {
    closeSync(this.fd);
    if (remove && !this.failed) unlinkSync(this.path);
  }
}
