import type { Cassette, CassetteWarning, LoadedInteraction } from "./cassette/format.js";
import { loadCassette as readCassetteFile, readCassetteHeader } from "./cassette/reader.js";
import { type CassetteValidator, createCassetteValidator } from "./cassette/schema.js";
import { exists } from "./cassette/writer.js";
import { RECORDING_SUFFIX } from "./record/plan.js";
import { type Recovery, recoverCassette } from "./record/recover.js";

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
  const { recovery, validator } = await recover(path, options);
  if (recovery.kind === "in-memory") return recovery.cassette;
  return readCassetteFile(path, validator);
}

/** A cassette opened for reading once: its header now, its interactions one at a time, kept by no one. */
export interface OpenedCassette {
  /** The cassette's file and header, and its warnings once `read` has run; it holds no interactions. */
  readonly cassette: Cassette;
  /** Hands every interaction, in file order, to `onInteraction` as it is read (and checked). */
  read(onInteraction: (interaction: LoadedInteraction) => void): Promise<void>;
}

/**
 * Opens a cassette as {@link loadCassette} loads it (a journal beside it recovered first), reading only its
 * header: `read` then streams its interactions. For a reader that keeps only what it makes of each one
 * (replay's index), the parsed documents die young rather than all living until the last is read.
 *
 * @example
 * const opened = await openCassette("recordings/pagination-crawl.yaml");
 * await opened.read((interaction) => index.add(interaction));
 */
export async function openCassette(path: string, options: LoadCassetteOptions = {}): Promise<OpenedCassette> {
  const { recovery, validator } = await recover(path, options);
  if (recovery.kind === "in-memory") {
    const { interactions, ...rest } = recovery.cassette;
    return {
      cassette: { ...rest, interactions: [] },
      read: async (onInteraction) => {
        for (const interaction of interactions) onInteraction(interaction);
      },
    };
  }
  const header = await readCassetteHeader(path, validator);
  const warnings: CassetteWarning[] = [];
  return {
    cassette: { file: path, header, interactions: [], warnings },
    read: async (onInteraction) => {
      warnings.push(...(await readCassetteFile(path, validator, onInteraction)).warnings);
    },
  };
}

/** Recovers a journal left beside the cassette, if any, saying so; and the validator to read it with. */
async function recover(
  path: string,
  options: LoadCassetteOptions,
): Promise<{ recovery: Recovery; validator: CassetteValidator }> {
  const onNotice = options.onNotice ?? ((message: string) => process.stderr.write(`${message}\n`));
  const validator = options.validator ?? createCassetteValidator();
  const recovery = await recoverCassette(path, {
    secretSalt: options.secretSalt ?? (process.env.ASSOPAY_CASSETTE_SALT || undefined),
    signatureKeys: (options.signatureKeys ?? []).filter((k) => k !== ""),
    onNotice,
    onEvent: (event) => onNotice(event.message),
  });
  const recording = `${path}${RECORDING_SUFFIX}`;
  if (await exists(recording)) {
    onNotice(
      `${recording} holds a --mode all recording of this cassette that is running or was interrupted: this reads ${path} as it was before it (assopay record on ${path} finishes an interrupted one)`,
    );
  }
  return { recovery, validator };
}
