import { copyFile, link, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { AssopayError } from "../../core/errors.js";
import { emitDocument } from "../cassette/emit.js";
import { CASSETTE_FORMAT, type Cassette, type CassetteHeader } from "../cassette/format.js";
import { acquireLock, type CassetteLock } from "../cassette/lock.js";
import { loadCassette } from "../cassette/reader.js";
import { exists, newHeader, type OpenCassette, openCassette } from "../cassette/writer.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { hasJournal, recoverCassette } from "./recover.js";

/**
 * What a recorder does with its cassette, from the mode and whether the file exists:
 * - `existing` is served first (modes `once` and `new`);
 * - `file` receives new interactions, from id `nextId` (absent in mode `once` when the cassette exists).
 */
export interface RecordingPlan {
  existing: Cassette | undefined;
  file: OpenCassette | undefined;
  nextId: number;
}

function header(options: ResolvedRecorderOptions): CassetteHeader {
  return newHeader(options.upstream.href, options, options.matchRules);
}

/** In mode `new`, the cassette must have been recorded with the same redaction settings. */
function checkCompatible(existing: Cassette, options: ResolvedRecorderOptions): void {
  const { pii, salted } = existing.header.redaction;
  if (pii !== options.redactPii) {
    throw new AssopayError(
      "usage",
      `the cassette was recorded ${pii ? "with" : "without"} --redact-pii; append to it the same way`,
      {
        location: { file: existing.file, line: 1 },
        hint: pii ? "add --redact-pii" : "drop --redact-pii, or record a new cassette",
      },
    );
  }
  if (salted !== (options.secretSalt !== undefined)) {
    throw new AssopayError(
      "usage",
      `the cassette was recorded ${salted ? "with" : "without"} a secret salt; append to it the same way`,
      {
        location: { file: existing.file, line: 1 },
        hint: salted
          ? "set ASSOPAY_CASSETTE_SALT to the salt it was recorded with"
          : "unset ASSOPAY_CASSETTE_SALT",
      },
    );
  }
}

/** Opens (and locks) the cassette as the mode says, after recovering what a killed recorder left. */
export async function planRecording(options: ResolvedRecorderOptions): Promise<RecordingPlan> {
  const { cassette, mode, onEvent } = options;
  const recording = `${cassette}${RECORDING_SUFFIX}`;
  if (await exists(cassette)) await checkIsCassette(cassette);
  const needsFile = mode !== "once" || !(await exists(cassette));
  const leftovers = (await hasJournal(cassette)) || (await exists(recording));
  if (!needsFile && !leftovers) return { existing: await loadCassette(cassette), file: undefined, nextId: 1 };
  const lock = await acquireLock(cassette, (pid, lockPath) =>
    onEvent({
      kind: "warning",
      message: `took over the stale lock ${lockPath}: process ${pid}, which held it, no longer runs`,
    }),
  );
  try {
    await recoverLeftovers(options, lock);
    if (mode === "all") return { existing: undefined, file: await openFresh(options, lock), nextId: 1 };
    if (!(await exists(cassette))) {
      return {
        existing: undefined,
        file: await openCassette(cassette, "create", header(options), { lock }),
        nextId: 1,
      };
    }
    const existing = await loadCassette(cassette);
    if (mode === "once") {
      await lock.release();
      return { existing, file: undefined, nextId: 1 };
    }
    checkCompatible(existing, options);
    const nextId = existing.interactions.reduce((max, i) => Math.max(max, i.id), 0) + 1;
    return { existing, file: await openCassette(cassette, "append", header(options), { lock }), nextId };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * What a recorder killed before it stopped left behind: a journal (recovered into its file) and, from
 * `--mode all`, an unfinished `.recording` (finished: it replaces the cassette, the old one kept).
 */
async function recoverLeftovers(options: ResolvedRecorderOptions, lock: CassetteLock): Promise<void> {
  const { cassette, onEvent } = options;
  const recording = `${cassette}${RECORDING_SUFFIX}`;
  const recover = async (file: string) => {
    const recovery = await recoverCassette(file, {
      secretSalt: options.secretSalt,
      signatureKeys: options.signatureKeys,
      onNotice: (message) => onEvent({ kind: "warning", message }),
      onEvent,
      held: { lock, header: header(options) },
    });
    if (recovery.kind === "foreign") {
      throw new AssopayError(
        "conflict",
        `${recovery.journal} is in the way: the recorder keeps its journal there`,
        {
          location: { file: recovery.journal },
          hint: "move that file elsewhere (it is not a journal assopay wrote), then start again",
        },
      );
    }
  };
  await recover(cassette);
  if (!(await exists(recording))) return;
  await recover(recording);
  const kept = await promoteRecording(cassette, options.keep);
  onEvent({
    kind: "warning",
    message: `finished the interrupted --mode all recording: it now is ${cassette}${kept ? ` (the earlier one kept as ${kept})` : ""}`,
  });
}

/**
 * Mode `all`: a new file, `<cassette>.recording`, which replaces the cassette once the recorder stops
 * (see {@link promoteRecording}); a recording that holds nothing leaves the cassette as it was.
 */
async function openFresh(options: ResolvedRecorderOptions, lock: CassetteLock): Promise<OpenCassette> {
  const { cassette, onEvent } = options;
  const recording = `${cassette}${RECORDING_SUFFIX}`;
  const head = header(options);
  const empty = Buffer.byteLength(emitDocument({ ...head }));
  return openCassette(recording, "create", head, {
    lock,
    beforeRelease: async () => {
      if ((await stat(recording)).size <= empty && (await exists(cassette))) {
        await unlink(recording);
        onEvent({ kind: "warning", message: `nothing was recorded: ${cassette} is left as it was` });
        return;
      }
      const kept = await promoteRecording(cassette, options.keep);
      if (kept) onEvent({ kind: "warning", message: `the earlier ${cassette} is kept as ${kept}` });
    },
  });
}

/** Where `--mode all` records before the file replaces the cassette: `<cassette>.recording`. */
export const RECORDING_SUFFIX = ".recording";

const VERSION = /^\.previous-(\d{8}T\d{9}Z)$/;

/** `<cassette>.previous-YYYYMMDDTHHMMSSmmmZ`: sorts as it was replaced. */
function versionName(cassette: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, "");
  return `${cassette}.previous-${stamp}`;
}

/** The earlier versions of a cassette, oldest first. */
export async function versionsOf(cassette: string): Promise<string[]> {
  const name = basename(cassette);
  const names = await readdir(dirname(cassette)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(name) && VERSION.test(n.slice(name.length)))
    .sort()
    .map((n) => join(dirname(cassette), n));
}

/**
 * Puts a finished `--mode all` recording in place: the current cassette (if any) is kept as a version
 * (a hard link, so it exists under both names until the rename), the recording is renamed over it (one
 * atomic step), and versions beyond the `keep` newest are deleted. Returns the version made, if any.
 */
export async function promoteRecording(
  cassette: string,
  keep: number,
  at = new Date(),
): Promise<string | undefined> {
  let kept: string | undefined;
  if (await exists(cassette)) {
    // Two versions in one millisecond: the later one is named a millisecond on.
    for (let ms = at.getTime(); ; ms++) {
      kept = versionName(cassette, new Date(ms));
      if (!(await exists(kept))) break;
    }
    const name = kept;
    await link(cassette, name).catch(() => copyFile(cassette, name));
  }
  await rename(`${cassette}${RECORDING_SUFFIX}`, cassette);
  const versions = await versionsOf(cassette);
  for (const old of versions.slice(0, Math.max(0, versions.length - keep))) {
    await unlink(old).catch(() => undefined);
  }
  return kept;
}

/**
 * Refuses to record over a file that is not a cassette (exit 2): its first document must name the
 * cassette format. An empty file holds nothing to lose and passes.
 */
export async function checkIsCassette(path: string): Promise<void> {
  if ((await stat(path).catch(() => undefined))?.isDirectory()) {
    throw new AssopayError("usage", `--cassette ${path} is a folder, not a cassette file`, {
      location: { file: path },
      hint: `name a file, for example --cassette ${join(path, "session.yaml")}`,
    });
  }
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return;
  const head = Buffer.alloc(16 * 1024);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  if (length === 0) return;
  const text = head.toString("utf8", 0, length);
  const firstDocument = text.split(/^(?:---|\.\.\.)\s*$/m).find((part) => part.trim() !== "") ?? "";
  if (
    new RegExp(`^format:\\s*["']?${CASSETTE_FORMAT.replace("/", "\\/")}["']?\\s*$`, "m").test(firstDocument)
  ) {
    return;
  }
  throw new AssopayError("usage", `refusing to record over ${path}: it is not an assopay cassette`, {
    location: { file: path, line: 1 },
    hint: `its first document has no "format: ${CASSETTE_FORMAT}"; pass --cassette a new file name (or an existing cassette)`,
  });
}
