import { stat } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import { packageVersion } from "../../core/paths.js";
import { CASSETTE_FORMAT, type Cassette, type CassetteHeader } from "../cassette/format.js";
import { loadCassette } from "../cassette/reader.js";
import { type OpenCassette, openCassette } from "../cassette/writer.js";
import type { ResolvedRecorderOptions } from "./options.js";

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

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function header(options: ResolvedRecorderOptions): CassetteHeader {
  return {
    format: CASSETTE_FORMAT,
    upstream: options.upstream.href,
    recordedAt: new Date().toISOString(),
    tool: `assopay-contract@${packageVersion()}`,
    redaction: { secrets: "hmac-sha256", salted: options.secretSalt !== undefined, pii: options.redactPii },
    ...(options.rules.length > 0 ? { matching: [...options.rules] } : {}),
  };
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

/** Opens (and locks) the cassette as the mode says. */
export async function planRecording(options: ResolvedRecorderOptions): Promise<RecordingPlan> {
  const present = await exists(options.cassette);
  if (options.mode === "all" || !present) {
    const mode = options.mode === "all" ? "replace" : "create";
    return {
      existing: undefined,
      file: await openCassette(options.cassette, mode, header(options)),
      nextId: 1,
    };
  }
  const existing = await loadCassette(options.cassette);
  if (options.mode === "once") return { existing, file: undefined, nextId: 1 };
  checkCompatible(existing, options);
  const nextId = existing.interactions.reduce((max, i) => Math.max(max, i.id), 0) + 1;
  return { existing, file: await openCassette(options.cassette, "append", header(options)), nextId };
}
