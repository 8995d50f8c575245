import { type FileHandle, open, stat, unlink } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import { emitDocument, YamlEmitter } from "../cassette/emit.js";
import type { Cassette, CassetteHeader } from "../cassette/format.js";
import { acquireLock, type CassetteLock } from "../cassette/lock.js";
import { parseCassette, loadCassette as readCassetteFile } from "../cassette/reader.js";
import { DocumentWriter, openCassette } from "../cassette/writer.js";
import type { ProxyEventSink } from "../events.js";
import { createRedactor } from "../redaction/redact.js";
import type { CapturedExchange } from "./capture.js";
import {
  frameLength,
  HEAD,
  headLength,
  type JournalEntry,
  journalPaths,
  readEntry,
  readHead,
} from "./journal.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { type InteractionSink, RecordingPipeline } from "./pipeline.js";

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

/**
 * Keeps the damaged stretches of a journal, one after another, in the file at `path`, in bounded memory,
 * the file created (mode 0600: the journal's bytes are not redacted) only once there is damage to keep;
 * `path()` says where, if it was. A chunk of zeros is not written, only skipped over, so a sparse
 * journal's damage stays sparse.
 */
export function damageFile(path: string) {
  let out: FileHandle | undefined;
  let zeros: Buffer | undefined;
  let written = 0;
  return {
    async keep(bytes: Buffer): Promise<void> {
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
    path: (): string | undefined => (out ? path : undefined),
  };
}

/**
 * Reads the journal at `source` (a path, or a file already open, which is closed here) as a stream (its
 * size does not matter: one frame at a time is in memory) and hands each good frame's exchange to
 * `onEntry`, in order. A frame whose head holds but whose metadata or bodies fail their checksum is
 * skipped, and reading goes on after it (its head says where it ends). A head that does not hold ends
 * the reading: what follows is kept as damage, never searched for frames, so that no recorded body can
 * ever become an exchange. A last frame cut short by a crash ends the journal. The caller checked that the file starts with a frame's magic.
 * `damage` is handed the damaged stretches, in order, each in the chunks recovery reads it in (a chunk is
 * only valid until the promise `keep` returns settles).
 */
export async function scanJournal(
  source: string | FileHandle,
  onEntry: (entry: JournalEntry) => Promise<void> | void,
  damage?: Pick<ReturnType<typeof damageFile>, "keep">,
): Promise<JournalScan> {
  const handle = typeof source === "string" ? await open(source, "r") : source;
  const scan: JournalScan = { good: 0, damaged: [], cutShort: undefined };
  try {
    const { size } = await handle.stat();
    let at = 0;
    let frame = 0;
    const skip = async (why: string, id: number | undefined, end: number) => {
      if (damage) {
        const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, end - at));
        for (let from = at; from < end; from += SCAN_CHUNK)
          await damage.keep(await readAt(handle, from, Math.min(SCAN_CHUNK, end - from), buffer));
      }
      scan.damaged.push({ frame, offset: at, length: end - at, id, why });
      at = end;
    };
    // A head that does not hold leaves the frame's end unknown: what follows is not read at all, since
    // looking for the next frame's magic could find one inside a recorded body (a forged frame).
    const untrusted = (why: string) =>
      skip(`${why}; nothing after it is read (a body may hold what looks like a frame)`, undefined, size);
    while (at < size) {
      frame++;
      const read = readHead(await readAt(handle, at, Math.min(HEAD, size - at)), 0, size - at, MAX_FRAME);
      if (read === "short") {
        scan.cutShort = { offset: at, length: size - at };
        break;
      }
      if (!read.ok) {
        await untrusted(read.why);
        continue;
      }
      const end = at + frameLength(read);
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
 * How the recorder redacted, as recovery is given it, and where redaction's problems go (`onEvent`: an
 * exchange that met one is left out, and said so).
 */
export type RedactionSettings = Pick<ResolvedRecorderOptions, "secretSalt" | "signatureKeys" | "onEvent">;

/**
 * The recorder's own pipeline, as recovery (and the HAR import) runs it: the same redactor (salt, PII
 * setting, extra keys), so an exchange is written exactly as the recorder would have; per-exchange
 * events are not repeated (recovery says what it did in one line). Each id goes through once (one met
 * again is counted in `duplicates`, and dropped); one the cassette already has (`known`) is redacted
 * (its secrets learnt) but not handed to `sink`; `added` counts those that were. `add` waits, every 64
 * exchanges, until what is queued is written: bounded memory.
 */
export function recoveryFeed(
  sink: InteractionSink,
  known: ReadonlySet<number>,
  pii: boolean,
  options: RedactionSettings,
) {
  const quiet: ProxyEventSink = (event) => {
    if (event.kind !== "recorded" && event.kind !== "notification") options.onEvent(event);
  };
  const feed = { added: 0, duplicates: 0, add, idle: () => pipeline.idle() };
  const filter: InteractionSink = {
    append(interaction, given) {
      if (given !== undefined && known.has(given)) return given;
      feed.added++;
      return sink.append(interaction, given);
    },
  };
  const redactor = createRedactor(options.secretSalt, pii, true);
  const pipeline = new RecordingPipeline(filter, redactor, options.signatureKeys, quiet);
  const seen = new Set<number>();
  let queued = 0;
  async function add(exchange: CapturedExchange, id?: number): Promise<void> {
    if (id !== undefined) {
      if (seen.has(id)) {
        feed.duplicates++;
        return;
      }
      seen.add(id);
    }
    pipeline.enqueue(exchange, id);
    if (++queued % 64 === 0) await pipeline.idle();
  }
  return feed;
}

/** What recovering a journal is given: what the recorder redacted with, and where its one line goes. */
export interface RecoveryOptions extends RedactionSettings {
  /** Receives one line per thing to say (what was recovered, what was skipped). */
  onNotice: (message: string) => void;
  /**
   * The recorder's: the lock it already holds and the header of a cassette still to be created. A
   * reader gives none: recovery takes the lock itself, and serves in memory when it cannot write.
   */
  held?: { lock: CassetteLock; header: CassetteHeader };
}

/**
 * What recovery did: nothing to do (`none`); folded the journal into the cassette (`folded`); could not
 * write it and built, in memory, the cassette plus the journal's exchanges (`in-memory`, readers only);
 * found a file of the journal's name that is not a journal and left it alone (`foreign`).
 */
export type Recovery =
  | { kind: "none" }
  | { kind: "folded"; recovered: number }
  | { kind: "in-memory"; cassette: Cassette }
  | { kind: "foreign"; journal: string };

/** The journal of `file`: `<file>.journal`. */
export function journalOf(file: string): string {
  return journalPaths(file)[1];
}

async function sizeOf(path: string): Promise<number | undefined> {
  return stat(path).then(
    (s) => s.size,
    () => undefined,
  );
}

/** Whether `file` has a journal beside it (left by a recorder that did not stop cleanly, or a live one). */
export async function hasJournal(file: string): Promise<boolean> {
  for (const path of journalPaths(file)) if ((await sizeOf(path)) !== undefined) return true;
  return false;
}

/** The journals of `file` that hold anything, oldest first (a sealed one, then the open one). */
async function presentJournals(file: string): Promise<string[]> {
  const present: string[] = [];
  for (const path of journalPaths(file)) if (((await sizeOf(path)) ?? 0) > 0) present.push(path);
  return present;
}

/** The error of a journal of `file` this user cannot read (nobody can tell what it holds then). */
function unreadable(file: string, journal: string, why: string): AssopayError {
  return new AssopayError(
    "bad-cassette",
    `${journal} may hold exchanges not yet in ${file}, and it cannot be read: ${why}`,
    {
      location: { file: journal },
      hint: `run assopay lint ${file} as a user who may read the journal and write the cassette's folder: it recovers the journal`,
    },
  );
}

/**
 * The first of `journals` that is not a journal assopay wrote (it does not start with a frame's magic);
 * throws when one cannot be read (then nobody can tell what it holds).
 */
async function foreignAmong(file: string, journals: readonly string[]): Promise<string | undefined> {
  for (const journal of journals) {
    let handle: FileHandle | undefined;
    try {
      handle = await open(journal, "r");
      if (headLength(await readAt(handle, 0, 4), 0) === 0) return journal;
    } catch (error) {
      throw unreadable(file, journal, (error as Error).message);
    } finally {
      await handle?.close();
    }
  }
  return undefined;
}

/**
 * The salt the recorder redacted with: the cassette's header says whether there was one (a recorder only
 * appends to a cassette with the same settings), the caller gives it. A salted cassette read without
 * its salt cannot be recovered as the recorder would have: an `AssopayError` (exit 2) naming the variable.
 */
function saltFor(header: CassetteHeader, file: string, options: RecoveryOptions): string | undefined {
  if (!header.redaction.salted) return undefined;
  if (options.secretSalt !== undefined) return options.secretSalt;
  const journal = journalOf(file);
  throw new AssopayError(
    "bad-cassette",
    `${journal} holds exchanges not yet in ${file}, which was recorded with a secret salt: they cannot be redacted without it`,
    {
      location: { file: journal },
      hint: `set ASSOPAY_CASSETTE_SALT to the salt it was recorded with and run assopay lint ${file} (any reader recovers the journal)`,
    },
  );
}

/**
 * Says what recovery did: `done`, then the extras (duplicates dropped, a last frame cut short), and one
 * line per journal with damaged frames (and where their bytes are kept).
 */
function notify(
  options: RecoveryOptions,
  done: string,
  scans: readonly { journal: string; scan: JournalScan; keptIn?: string | undefined }[],
  duplicates: number,
): void {
  const more: string[] = [];
  if (duplicates > 0) more.push(`${duplicates} duplicate frame(s) dropped`);
  if (scans.some(({ scan }) => scan.cutShort))
    more.push("a last frame cut short by the stop dropped: its client had no answer");
  options.onNotice(more.length === 0 ? done : `${done} (${more.join("; ")})`);
  for (const { journal, scan, keptIn } of scans) {
    if (scan.damaged.length === 0) continue;
    const frames = scan.damaged
      .map(
        (d) =>
          `frame ${d.frame} at byte ${d.offset} (${d.length} bytes, ${d.id === undefined ? "id unreadable" : `id ${d.id}`}: ${d.why})`,
      )
      .join("; ");
    const kept = keptIn ? `; the damaged bytes are kept in ${keptIn}` : "";
    options.onNotice(
      `skipped ${scan.damaged.length} damaged frame(s) of ${journal}, none written to the cassette: ${frames}${kept}`,
    );
  }
}

/**
 * The one recovery routine, for `record` and every reader (replay, lint, verify and gate on cassettes,
 * the nock entry, the library's `loadCassette`): when `file` has a journal left behind (a sealed one
 * too, read first: see `JournalQueue`, `worker-host.ts`), its exchanges are redacted by the recorder's own pipeline
 * (with the cassette's redaction settings and `secretSalt`) and appended under the cassette's lock,
 * every exchange once (ids already in the cassette, or met twice, are dropped); damaged frames are
 * skipped, named in one line, and their bytes kept in `<journal>.damaged` (0600); then the journal is
 * deleted. A reader that cannot write (the folder is read-only, a live recorder holds the lock) gets the
 * cassette plus the journal's exchanges redacted in memory, and one line saying so. A journal it cannot
 * use at all is an `AssopayError` (exit 2).
 */
export async function recoverCassette(file: string, options: RecoveryOptions): Promise<Recovery> {
  const journals = await presentJournals(file);
  if (journals.length === 0) return { kind: "none" };
  const foreign = await foreignAmong(file, journals);
  if (foreign) {
    options.onNotice(
      `left ${foreign} alone: it does not start with a journal's magic (AJ02), so assopay did not write it`,
    );
    return { kind: "foreign", journal: foreign };
  }
  const journal = journalOf(file);
  if (options.held) {
    return { kind: "folded", recovered: await fold(file, options.held.lock, options.held.header, options) };
  }
  const cassetteSize = await sizeOf(file);
  if (cassetteSize === undefined) {
    throw new AssopayError("bad-cassette", `${file} does not exist, but the journal of its recording does`, {
      location: { file: journal },
      hint: `run assopay record --upstream <the service> --cassette ${file} --mode once: it recovers the journal into a new cassette`,
    });
  }
  const cassette = await readCassetteFile(file);
  saltFor(cassette.header, file, options);
  let lock: CassetteLock;
  try {
    lock = await acquireLock(file);
  } catch (error) {
    return inMemory(file, cassette, options, (error as Error).message);
  }
  try {
    return { kind: "folded", recovered: await fold(file, lock, cassette.header, options) };
  } catch (error) {
    return inMemory(file, await readCassetteFile(file), options, (error as Error).message);
  } finally {
    await lock.release();
  }
}

/** A reader that cannot write: the cassette plus the journal's exchanges, redacted in memory. */
async function inMemory(
  file: string,
  cassette: Cassette,
  options: RecoveryOptions,
  why: string,
): Promise<Recovery> {
  const entries: JournalEntry[] = [];
  const scans: { journal: string; scan: JournalScan }[] = [];
  const opened: { journal: string; handle: FileHandle }[] = [];
  try {
    // The open journal before the sealed one: a live recorder that seals it in between renames what this
    // reader already holds open to the sealed name, where it is found again (its ids then count once).
    for (const journal of [...journalPaths(file)].reverse()) {
      const handle = await open(journal, "r").catch((error: NodeJS.ErrnoException) => {
        // Gone meanwhile: another reader (holding the lock) has folded it into the cassette, or a live
        // recorder's worker has converted all of a sealed one (the cassette, read after, has it).
        if (error.code === "ENOENT") return undefined;
        throw unreadable(file, journal, error.message);
      });
      if (handle) opened.unshift({ journal, handle });
    }
    // The sealed one read first: its exchanges were recorded before the open one's.
    while (opened.length > 0) {
      const { journal, handle } = opened.shift() as { journal: string; handle: FileHandle };
      const scan = await scanJournal(handle, (entry) => {
        entries.push(entry);
      }).catch((error: Error) => {
        throw unreadable(file, journal, error.message);
      });
      scans.push({ journal, scan });
    }
  } finally {
    for (const { handle } of opened) await handle.close();
  }
  if (scans.length === 0) return { kind: "none" };
  // Read after the journal: what a live recorder moved from the journal into the cassette meanwhile is there.
  const current = await readCassetteFile(file).catch(() => cassette);
  const secretSalt = saltFor(current.header, file, options);
  const emitter = new YamlEmitter();
  const text: string[] = [emitDocument({ ...current.header })];
  const feed = recoveryFeed(
    {
      append({ recordedAt, request, response, notification }, id = 0) {
        text.push(emitter.document({ id, recordedAt, request, response, notification }));
        return id;
      },
    },
    new Set(current.interactions.map((i) => i.id)),
    current.header.redaction.pii,
    { ...options, secretSalt },
  );
  for (const { id, exchange } of entries) await feed.add(exchange, id);
  await feed.idle();
  const journal = journalOf(file);
  // Redacted by the recorder's pipeline and read back as cassette documents, all in memory.
  const fromJournal = parseCassette(text.join(""), `${file}.journal (redacted in memory)`);
  notify(
    options,
    `serving ${feed.added} exchange(s) from ${journal} redacted in memory, besides the cassette: it cannot be written now (${why}); the journal stays until a reader or assopay record can write ${file}`,
    scans,
    feed.duplicates,
  );
  const built = Object.freeze({
    file: current.file,
    header: current.header,
    interactions: [...current.interactions, ...fromJournal.interactions],
    warnings: [...current.warnings, ...fromJournal.warnings],
  });
  return { kind: "in-memory", cassette: built };
}

/**
 * Appends the journal's exchanges the cassette lacks, redacted, then deletes the journal; returns how
 * many were recovered. The caller holds the lock. A write that fails is an `AssopayError`, the journal
 * kept.
 */
async function fold(
  file: string,
  lock: CassetteLock,
  header: CassetteHeader,
  options: RecoveryOptions,
): Promise<number> {
  const journal = journalOf(file);
  const journals = await presentJournals(file);
  const present = (await sizeOf(file)) !== undefined;
  const cassette = present ? await readCassetteFile(file) : undefined;
  const ids = new Set((cassette?.interactions ?? []).map((i) => i.id));
  const maxId = Math.max(0, ...ids);
  const redaction = (cassette?.header ?? header).redaction;
  const secretSalt = saltFor(cassette?.header ?? header, file, options);
  // The lock stays the caller's: this file is closed without releasing it.
  const open = await openCassette(file, present ? "append" : "create", header, {
    lock: { path: lock.path, release: async () => undefined },
  });
  const scans: { journal: string; scan: JournalScan; keptIn: string | undefined }[] = [];
  let feed: ReturnType<typeof recoveryFeed>;
  try {
    let failure: Error | undefined;
    const writer = new DocumentWriter(open.fd, maxId + 1, (error) => {
      failure = error;
    });
    feed = recoveryFeed(writer, ids, redaction.pii, { ...options, secretSalt });
    // The sealed journal first: its exchanges were recorded before the open one's.
    for (const path of journals) {
      const damaged = damageFile(`${path}.damaged`);
      const scan = await scanJournal(path, ({ id, exchange }) => feed.add(exchange, id), damaged).finally(
        () => damaged.close(),
      );
      scans.push({ journal: path, scan, keptIn: damaged.path() });
    }
    await feed.idle();
    writer.flush();
    if (failure) {
      throw new AssopayError("bad-input", `recovering the journal failed: ${failure.message}`, {
        location: { file: journal },
        hint: "free some disk space and start again: the journal is kept until it is recovered",
      });
    }
  } finally {
    await open.close();
  }
  for (const path of journals) await unlink(path);
  notify(
    options,
    `recovered ${feed.added} exchange(s) into ${file} from the journal of a recorder that did not stop cleanly`,
    scans,
    feed.duplicates,
  );
  return feed.added;
}
