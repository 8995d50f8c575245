import { type FileHandle, open } from "node:fs/promises";
import { frameLength, HEAD, headLength, type JournalEntry, readEntry, readHead } from "./journal-frame.js";

/** A stretch of the journal recovery skipped: where it starts, how long it is, and why. */
export interface DamagedFrame {
  /** The frame's number in the journal, counting from 1 (every frame met, good or damaged). */
  frame: number;
  offset: number;
  length: number;
  /** The exchange's id, when its metadata could still be read. */
  id: number | undefined;
  why: string;
}

/** What a scan of a journal found besides its good frames. */
export interface JournalScan {
  good: number;
  damaged: DamagedFrame[];
  /** The last frame, when the recorder was stopped while writing it (its client never got an answer). */
  cutShort: { offset: number; length: number } | undefined;
}

/** How much is read at once while copying damage. */
const SCAN_CHUNK = 8 * 1024 * 1024;
/** The most a frame may claim (a body is far below, see `maxBodyBytes`): more is a damaged head. */
const MAX_FRAME = 1024 * 1024 * 1024;

/** `length` bytes at `position` (fewer at the end of the file), into `into` when it is given and large enough. */
async function readAt(handle: FileHandle, position: number, length: number, into?: Buffer): Promise<Buffer> {
  const bytes = into && into.length >= length ? into : Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(bytes, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return bytes.subarray(0, got);
}

/** Hands the bytes from `from` to `to` to `damage`, a chunk at a time. */
async function keepStretch(
  handle: FileHandle,
  from: number,
  to: number,
  damage: DamageKeeper,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, to - from));
  for (let at = from; at < to; at += SCAN_CHUNK) {
    await damage.keep(await readAt(handle, at, Math.min(SCAN_CHUNK, to - at), buffer));
  }
}

/**
 * Takes the damaged stretches of a journal, in order, each as the chunks recovery reads it in (a chunk
 * is only valid until the returned promise settles).
 */
export interface DamageKeeper {
  keep(bytes: Buffer): Promise<void>;
}

/**
 * A {@link DamageKeeper} writing the damaged stretches one after another to `path`, in bounded memory,
 * the file created (mode 0600: the journal's bytes are not redacted) only once there is damage to keep;
 * `path()` says where, if it was. A chunk of zeros is not written, only skipped over, so a sparse
 * journal's damage stays sparse.
 */
export function damageFile(path: string): DamageKeeper & {
  close(): Promise<void>;
  path(): string | undefined;
} {
  let out: FileHandle | undefined;
  let zeros: Buffer | undefined;
  let written = 0;
  return {
    async keep(bytes) {
      out ??= await open(path, "w", 0o600);
      zeros ??= Buffer.alloc(SCAN_CHUNK + 3);
      if (!bytes.equals(zeros.subarray(0, bytes.length))) await out.write(bytes, 0, bytes.length, written);
      written += bytes.length;
    },
    async close() {
      if (!out) return;
      await out.truncate(written);
      await out.close();
    },
    path: () => (out ? path : undefined),
  };
}

/**
 * Reads the journal at `source` (a path, or a file already open, which is closed here) as a stream (its
 * size does not matter: one frame at a time is in memory) and hands each good frame's exchange to
 * `onEntry`, in order. A frame whose head holds but whose metadata or bodies fail their checksum is
 * skipped, and reading goes on after it (its head says where it ends). A head that does not hold ends
 * the reading: what follows is kept as damage, never searched for frames, so that no recorded body can
 * ever become an exchange. A last frame cut short by a crash ends the journal. The caller checked that the file starts with a frame's magic.
 */
export async function scanJournal(
  source: string | FileHandle,
  onEntry: (entry: JournalEntry) => Promise<void> | void,
  damage?: DamageKeeper,
): Promise<JournalScan> {
  const handle = typeof source === "string" ? await open(source, "r") : source;
  const scan: JournalScan = { good: 0, damaged: [], cutShort: undefined };
  try {
    const { size } = await handle.stat();
    let at = 0;
    let frame = 0;
    const skip = async (why: string, id: number | undefined, end: number) => {
      if (damage) await keepStretch(handle, at, end, damage);
      scan.damaged.push({ frame, offset: at, length: end - at, id, why });
      at = end;
    };
    // A head that does not hold leaves the frame's end unknown: what follows is not read at all, since
    // looking for the next frame's magic could find one inside a recorded body (a forged frame).
    const untrusted = (why: string) =>
      skip(`${why}; nothing after it is read (a body may hold what looks like a frame)`, undefined, size);
    while (at < size) {
      frame++;
      const head = await readAt(handle, at, Math.min(HEAD, size - at));
      const length = headLength(head, 0);
      if (length === 0) {
        await untrusted("no frame starts there");
        continue;
      }
      if (head.length < length) {
        scan.cutShort = { offset: at, length: size - at };
        break;
      }
      const read = readHead(head, 0);
      if (!read.ok) {
        await untrusted(read.why);
        continue;
      }
      if (frameLength(read) > MAX_FRAME) {
        await untrusted("its head claims more bytes than a frame may hold");
        continue;
      }
      const end = at + frameLength(read);
      if (end > size) {
        scan.cutShort = { offset: at, length: size - at };
        break;
      }
      const rest = await readAt(handle, at + read.head, end - at - read.head);
      const entry = readEntry(read, rest);
      if (!("entry" in entry)) {
        // The head holds (its own checksum says so): the frame's end is known.
        await skip(entry.why, entry.id, end);
        continue;
      }
      await onEntry(entry.entry);
      scan.good++;
      at = end;
    }
  } finally {
    await handle.close();
  }
  return scan;
}

/**
 * What the file at `path` is: a journal (it starts with a frame's magic), something else, or a file that
 * cannot be read (then nobody can tell).
 */
export async function journalKind(path: string): Promise<"journal" | "foreign" | { unreadable: string }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, "r");
    return headLength(await readAt(handle, 0, 4), 0) > 0 ? "journal" : "foreign";
  } catch (error) {
    return { unreadable: (error as Error).message };
  } finally {
    await handle?.close();
  }
}

/** One line naming what a scan skipped (empty when nothing was). */
export function describeDamage(journal: string, scan: JournalScan, keptIn: string | undefined): string {
  if (scan.damaged.length === 0) return "";
  const frames = scan.damaged
    .map(
      (d) =>
        `frame ${d.frame} at byte ${d.offset} (${d.length} bytes, ${d.id === undefined ? "id unreadable" : `id ${d.id}`}: ${d.why})`,
    )
    .join("; ");
  const kept = keptIn ? `; the damaged bytes are kept in ${keptIn}` : "";
  return `skipped ${scan.damaged.length} damaged frame(s) of ${journal}, none written to the cassette: ${frames}${kept}`;
}
