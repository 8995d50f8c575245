import { writeSync, writevSync } from "node:fs";
import { type FileHandle, open, stat, unlink } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import { packageVersion } from "../../core/paths.js";
import { emitDocument, YamlEmitter } from "./emit.js";
import {
  CASSETTE_FORMAT,
  type CassetteHeader,
  type Interaction,
  type MatchRule,
  type StoredBody,
  type StoredRequest,
  type StoredResponse,
} from "./format.js";
import { acquireLock, type CassetteLock } from "./lock.js";
import type { YamlBlock } from "./yaml-scalar.js";

/**
 * A body as the writer takes it: its stored form, or its value already written as YAML (`json` from
 * JSON text, `text` from a long line kept as its bytes), which the writer copies as it is.
 */
export type WritableBody = StoredBody | { json: YamlBlock } | { text: YamlBlock };

/** An interaction as the writer takes it (it gives the id): bodies may be already written as YAML. */
export interface WritableInteraction extends Omit<Interaction, "id" | "request" | "response"> {
  request: Omit<StoredRequest, "body"> & { body?: WritableBody };
  response: Omit<StoredResponse, "body"> & { body?: WritableBody };
}

/** The header of a cassette this tool writes: the service, how it is redacted, the matching rules given. */
export function newHeader(
  upstream: string,
  redaction: { secretSalt: string | undefined; redactPii: boolean },
  matching: readonly MatchRule[] = [],
  recordedAt?: string,
): CassetteHeader {
  return {
    format: CASSETTE_FORMAT,
    upstream,
    recordedAt: recordedAt ?? new Date().toISOString(),
    tool: `assopay-contract@${packageVersion()}`,
    redaction: {
      secrets: "hmac-sha256",
      salted: redaction.secretSalt !== undefined,
      pii: redaction.redactPii,
    },
    ...(matching.length > 0 ? { matching: [...matching] } : {}),
  };
}

/** Whether something is at `path` (a file this user may stat). */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** One `write(2)` (more only if the kernel takes part of it): whole documents, appended. */
function writeAllSync(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/**
 * Writes text and byte pieces in order with one `writev(2)`: adjacent texts are encoded together, bytes
 * (raw bodies, bodies written straight to YAML) go as they are, never copied into one buffer first.
 */
function writePiecesSync(fd: number, pieces: readonly (string | Buffer)[]): void {
  const buffers: Buffer[] = [];
  let text = "";
  for (const piece of pieces) {
    if (typeof piece === "string") text += piece;
    else {
      if (text !== "") buffers.push(Buffer.from(text, "utf8"));
      text = "";
      buffers.push(piece);
    }
  }
  if (text !== "") buffers.push(Buffer.from(text, "utf8"));
  if (buffers.length === 1) writeAllSync(fd, buffers[0] as Buffer);
  else writevAllSync(fd, buffers);
}

/** Writes `buffers` in order with one `writev(2)` (more only if the kernel takes part); returns their length. */
export function writevAllSync(fd: number, buffers: readonly Buffer[]): number {
  let total = 0;
  for (const buffer of buffers) total += buffer.length;
  const written = writevSync(fd, buffers);
  if (written < total) writeAllSync(fd, Buffer.concat(buffers).subarray(written));
  return total;
}

/** Whether a file's last byte is a newline (true for an empty file). */
async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** A cassette opened for appending: its file descriptor (`O_APPEND`), held under its lock. */
export interface OpenCassette {
  readonly path: string;
  readonly fd: number;
  /** Closes the file and releases the lock. */
  close(): Promise<void>;
}

/**
 * Locks the cassette (one writer per file, see {@link acquireLock}) and opens it with `O_APPEND`: mode
 * `create` makes a new file (an existing one is an error), `append` adds to an existing file (created when
 * missing). A new file gets its header, on disk before this resolves; an existing one whose last write was
 * cut short gets a newline, so that the next document starts on a line of its own (nothing else is ever
 * changed). `more.lock` is a lock the caller already holds (released on close; by default the file's own
 * is taken); `more.beforeRelease` runs once the file is closed, before the lock is released (e.g. renaming
 * it into place).
 */
export async function openCassette(
  path: string,
  mode: "create" | "append",
  header: CassetteHeader,
  more: { lock?: CassetteLock; beforeRelease?: () => Promise<void> } = {},
): Promise<OpenCassette> {
  const lock = more.lock ?? (await acquireLock(path));
  let handle: FileHandle | undefined;
  let made = false;
  try {
    const present = await exists(path);
    if (present && mode === "create") {
      throw new AssopayError("conflict", `the cassette ${path} already exists`, {
        location: { file: path },
        hint: "use --mode new to add to it or --mode all to record it again",
      });
    }
    const opened = await open(path, present ? "a+" : "ax");
    handle = opened;
    made = !present;
    if (made) writeAllSync(opened.fd, Buffer.from(emitDocument({ ...header })));
    else if (!(await endsWithNewline(opened))) writeAllSync(opened.fd, Buffer.from("\n"));
    return {
      path,
      fd: opened.fd,
      async close() {
        await opened.close().catch(() => undefined);
        try {
          await more.beforeRelease?.();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    // A header that cannot be written (a full disk): the file is closed, and the one made here removed.
    await handle?.close().catch(() => undefined);
    if (made) await unlink(path).catch(() => undefined);
    await lock.release();
    if (error instanceof AssopayError) throw error;
    throw new AssopayError("bad-input", `cannot open the cassette for writing: ${(error as Error).message}`, {
      location: { file: path },
      hint: "check that the cassette's folder exists and is writable",
      cause: error,
    });
  }
}

/** Characters of queued documents that are written at once, without waiting for the end of the turn. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/**
 * Appends interactions to an open cassette: whole documents, never a rewrite, never a truncation.
 * Documents queued during one turn of the event loop are written together, in one `write(2)` at the end
 * of that turn (never one per request): a SIGKILL loses at most the exchanges of that turn, and only the
 * last document can be cut short (the reader skips it). After a failed write nothing more is written, so
 * that a partial document is never followed by more.
 */
export class DocumentWriter {
  private readonly fd: number;
  private readonly onError: (error: Error) => void;
  private readonly emitter = new YamlEmitter();
  private pending: (string | Buffer)[] = [];
  private pendingLength = 0;
  private scheduled: NodeJS.Immediate | undefined;
  private failed: Error | undefined;
  private nextId: number;
  private written = 0;

  /** `nextId` is the id the first appended interaction gets. */
  constructor(fd: number, nextId: number, onError: (error: Error) => void) {
    this.fd = fd;
    this.nextId = nextId;
    this.onError = onError;
  }

  /** Interactions queued or written so far. */
  get count(): number {
    return this.written;
  }

  /**
   * Gives the interaction its id (`given`, or the next one), serialises it and queues it; returns the id.
   * Later interactions without a given id follow on from it.
   */
  append(interaction: WritableInteraction, given?: number): number {
    const id = given ?? this.nextId;
    this.nextId = id + 1;
    this.written++;
    if (this.failed) return id;
    const { recordedAt, request, response, notification } = interaction;
    const doc = this.emitter.pieces({ id, recordedAt, request, response, notification });
    for (const piece of typeof doc === "string" ? [doc] : doc) {
      this.pending.push(piece);
      this.pendingLength += piece.length;
    }
    // A turn that queues a lot (large bodies, a backlog) writes as it goes, in chunks of a few megabytes.
    if (this.pendingLength >= WRITE_CHUNK) this.flush();
    else this.scheduled ??= setImmediate(() => this.writePending());
    return id;
  }

  private writePending(): void {
    this.scheduled = undefined;
    if (this.failed || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingLength = 0;
    try {
      writePiecesSync(this.fd, batch);
    } catch (error) {
      this.failed = error as Error;
      this.onError(this.failed);
    }
  }

  /** Writes everything queued, now. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.writePending();
  }
}
