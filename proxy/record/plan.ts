import { stat, unlink } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import { emitDocument } from "../cassette/emit.js";
import type { Cassette, CassetteHeader } from "../cassette/format.js";
import { acquireLock, type CassetteLock } from "../cassette/lock.js";
import { loadCassette } from "../cassette/reader.js";
import { exists, newHeader, type OpenCassette, openCassette } from "../cassette/writer.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { hasJournal, recoverCassette } from "./recover.js";
import { checkIsCassette, promoteRecording, RECORDING_SUFFIX } from "./versions.js";

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
