import { stat } from "node:fs/promises";
import type { Cassette } from "./cassette/format.js";
import { loadCassette as readCassetteFile } from "./cassette/reader.js";
import { type CassetteValidator, createCassetteValidator } from "./cassette/schema.js";
import { recoverCassette } from "./record/recover.js";
import { RECORDING_SUFFIX } from "./record/versions.js";

/** What {@link loadCassette} may be given. */
export interface LoadCassetteOptions {
  /** The salt the cassette was recorded with (default: `ASSOPAY_CASSETTE_SALT`), to redact a journal's exchanges. */
  secretSalt?: string | undefined;
  /** Signing keys the recorder was given (`signatureKeys`), redacted like every secret it met. */
  signatureKeys?: readonly string[];
  /** Receives the line recovery prints (default: standard error). */
  onNotice?: (message: string) => void;
  validator?: CassetteValidator;
}

/**
 * Loads a cassette for reading, as every reader does (replay, lint, verify and gate on cassettes, the
 * nock entry): a journal a recorder left beside it (`<cassette>.journal`: killed, or still running) is
 * recovered first, redacted as the recorder would have (see `proxy/record/recover.ts`), and said so in
 * one line; so no reader ever serves part of a recording without saying so. A file that is not a
 * cassette, or a journal that cannot be used at all, is an `AssopayError` (exit 2).
 *
 * @example
 * const cassette = await loadCassette("recordings/pagination-crawl.yaml");
 * console.log(cassette.header.upstream, cassette.interactions.length);
 */
export async function loadCassette(path: string, options: LoadCassetteOptions = {}): Promise<Cassette> {
  const onNotice = options.onNotice ?? ((message: string) => process.stderr.write(`${message}\n`));
  const validator = options.validator ?? createCassetteValidator();
  const recovery = await recoverCassette(path, {
    secretSalt: options.secretSalt ?? (process.env.ASSOPAY_CASSETTE_SALT || undefined),
    signatureKeys: (options.signatureKeys ?? []).filter((k) => k !== ""),
    onNotice,
    onEvent: (event) => onNotice(event.message),
  });
  const recording = `${path}${RECORDING_SUFFIX}`;
  if (
    await stat(recording).then(
      () => true,
      () => false,
    )
  ) {
    onNotice(
      `${recording} holds a --mode all recording of this cassette that is running or was interrupted: this reads ${path} as it was before it (assopay record on ${path} finishes an interrupted one)`,
    );
  }
  if (recovery.kind === "in-memory") return recovery.cassette;
  return readCassetteFile(path, validator);
}
