import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { makeDirSync } from "../../core/make-dir.js";
import { type OwnMarks, ownershipOf, refusal } from "../../core/owned-file.js";
import { dayBefore } from "../timeline-dates.js";
import type { Contract } from "../types.js";
import { listingInteractions } from "./listing-interactions.js";
import { messageInteractions } from "./message-interactions.js";
import { resourceInteractions } from "./resource-interactions.js";

export const CONSUMER = "assopay-consumer";
export const PROVIDER = "association-payment-api-v5";

/** The file, in the output folder, that lists what `assopay contracts` wrote there. */
export const MANIFEST_NAME = ".assopay-pacts.manifest";

/** One file the generator wrote: its name in the folder and the SHA-256 of its text. */
export interface ManifestEntry {
  name: string;
  sha256: string;
}

/** Lowercase hex SHA-256 of a text, as the manifest records it. */
export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The manifest's exact text for a set of files (stable order, one trailing newline): the files written
 * by the last run, nothing else is ever touched.
 */
export function manifestText(files: readonly { name: string; text: string }[]): string {
  const manifest = {
    format: 1,
    generator: "assopay contracts",
    files: files.map((f) => ({ name: f.name, sha256: sha256(f.text) })),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The output folder, checked: it must be a folder (or not exist yet when `mayBeMissing`). A file or a
 * missing folder given to `--check` is a usage mistake (exit 2), never a stack trace.
 */
export function checkOutDir(dir: string, mayBeMissing: boolean): void {
  if (!existsSync(dir)) {
    if (mayBeMissing) return;
    throw new AssopayError("usage", `--out ${dir}: no such folder`, {
      hint: "give the folder holding the pact files (default contracts/pacts), or run without --check to write them",
    });
  }
  if (!statSync(dir).isDirectory()) {
    throw new AssopayError("usage", `--out ${dir}: is a file, not a folder`, {
      hint: "--out takes a folder; the pact files and their manifest are written inside it",
    });
  }
}

const isEntry = (value: unknown): value is ManifestEntry =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ManifestEntry).name === "string" &&
  /^[^/\\]+\.json$/.test((value as ManifestEntry).name) &&
  typeof (value as ManifestEntry).sha256 === "string";

/** The files the last run wrote in `dir` (none when there is no manifest yet). */
export function readManifest(dir: string): ManifestEntry[] {
  const file = join(dir, MANIFEST_NAME);
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new AssopayError("bad-input", `not a JSON manifest: ${(error as Error).message}`, {
      location: { file },
      hint: "this file lists what 'assopay contracts' wrote; delete it only if you also delete those files",
    });
  }
  const files = (parsed as { files?: unknown } | null)?.files;
  if (!Array.isArray(files) || !files.every(isEntry)) {
    throw new AssopayError("bad-input", "the manifest has no valid 'files' list", {
      location: { file },
      hint: "each entry needs a 'name' (a *.json file of the folder) and a 'sha256'",
    });
  }
  return files;
}

/** Whether a file's text is a pact this generator wrote (for folders written before manifests existed). */
export function looksGenerated(text: string, consumer: string): boolean {
  try {
    const pact = JSON.parse(text) as { consumer?: { name?: unknown }; metadata?: { assopay?: unknown } };
    return pact.consumer?.name === consumer && typeof pact.metadata?.assopay === "object";
  } catch {
    return false;
  }
}

/** A generated pact file: its name and its exact text. */
export interface PactFile {
  name: string;
  asOf: IsoDay;
  text: string;
}

/**
 * The eras of the timeline: the first day of each, so that one pact per era covers how the service
 * answers over time (counts real, -1, absent; v3 served, gone). The first era starts a day before the
 * earliest entry.
 */
export function eras(contract: Contract): IsoDay[] {
  const days = [...new Set(contract.timeline.entries.map((e) => e.date))].sort();
  const first = days[0];
  return first ? [dayBefore(first), ...days] : [];
}

/** The file name of the pact for an era. */
export function pactFileName(asOf: IsoDay): string {
  return `${CONSUMER}-${PROVIDER}.as-of-${asOf}.json`;
}

/** The provider state every interaction of an era starts with: the provider answers as on that day. */
export const SERVICE_DATE_STATE = "the service date";

/** Builds the pact of one era from the catalogue, the schemas and the timeline. */
export function buildPact(contract: Contract, asOf: IsoDay): Record<string, unknown> {
  const interactions = [
    ...contract.routes.listings().flatMap((route) => listingInteractions(contract, route, asOf)),
    ...resourceInteractions(contract, asOf),
    ...messageInteractions(contract),
  ].map((i) => ({
    ...i,
    // The era is part of each description: unique across every file, a broker accepts the folder
    // published as one consumer version.
    description: `${String(i.description)} (as of ${asOf})`,
    providerStates: [
      { name: SERVICE_DATE_STATE, params: { day: asOf } },
      ...((i.providerStates as unknown[] | undefined) ?? []),
    ],
  }));
  const inForce = contract.timeline.entries.filter((e) => e.date <= asOf).map((e) => e.id);
  return {
    consumer: { name: CONSUMER },
    provider: { name: PROVIDER },
    interactions,
    metadata: {
      pactSpecification: { version: "4.0" },
      assopay: {
        asOf,
        generatedFrom:
          "contracts/routes.yaml, contracts/schemas, contracts/timeline.yaml, contracts/notification-types.yaml",
        timelineInForce: inForce,
        tokens:
          "the Authorization header comes from the provider state 'an access token' (accessToken), Pact's fromProviderState",
      },
    },
  };
}

/** Every pact file the contract implies, in a stable order and format. */
export function generatePacts(contract: Contract): PactFile[] {
  return eras(contract).map((asOf) => ({
    name: pactFileName(asOf),
    asOf,
    text: `${JSON.stringify(buildPact(contract, asOf), null, 2)}\n`,
  }));
}

/** What {@link writePacts} did: the files written, and the files of the folder it kept and why (one line each). */
export interface WrittenPacts {
  files: PactFile[];
  kept: string[];
}

/**
 * Writes the pact files to a folder with a manifest of what was written (each file's SHA-256). A file
 * there is replaced only when it is this generator's and unchanged (see `core/owned-file.ts`): listed in
 * the manifest with the hash it still has, or, without a manifest entry, carrying the generator's mark.
 * A file changed since it was written, or one this generator did not write, is kept and the run refused
 * (a 'conflict', exit 2, nothing written) unless `force`. A file the contract no longer generates is
 * removed only when unchanged; a changed one is kept, and said so in `kept`.
 */
export function writePacts(contract: Contract, dir: string, options: { force?: boolean } = {}): WrittenPacts {
  checkOutDir(dir, true);
  try {
    makeDirSync(dir);
  } catch (error) {
    throw new AssopayError("usage", `--out ${dir}: ${(error as Error).message}`, {
      hint: "give --out a folder you can write to",
      cause: error,
    });
  }
  const force = options.force === true;
  const previous = new Map(readManifest(dir).map((e) => [e.name, e.sha256]));
  const marks = (name: string): OwnMarks => {
    const recorded = previous.get(name);
    if (recorded !== undefined) return { sha256: recorded };
    // A folder written before manifests existed: a pact this generator wrote counts as recorded as it is.
    const text = regularFile(join(dir, name));
    return text !== undefined && looksGenerated(text.toString("utf8"), CONSUMER)
      ? { sha256: sha256(text) }
      : {};
  };
  const files = generatePacts(contract);
  const intent = { flag: "assopay contracts --out", what: "a pact", force };
  const refused = files
    .map((file) => ({
      path: join(dir, file.name),
      ownership: ownershipOf(join(dir, file.name), marks(file.name)),
    }))
    .filter((f) => f.ownership === "modified" || f.ownership === "foreign");
  const [first] = refused;
  if (first && !force) {
    const error = refusal(first.path, first.ownership, intent);
    if (refused.length === 1) throw error;
    throw new AssopayError(
      "conflict",
      `${refused.length} files of ${dir} were not written by assopay contracts, or were modified since: ${refused.map((f) => `${f.path} (${f.ownership === "modified" ? "modified" : "not a generated pact"})`).join(", ")}; they are kept, nothing was written`,
      { location: { file: first.path }, hint: error.hint },
    );
  }
  const kept: string[] = [];
  const keep = new Set(files.map((f) => f.name));
  for (const name of previous.keys()) {
    if (keep.has(name)) continue;
    const path = join(dir, name);
    const ownership = ownershipOf(path, marks(name));
    if (ownership === "ours") rmSync(path, { force: true });
    else if (ownership === "modified")
      kept.push(
        `kept ${path}: modified since assopay contracts wrote it (the contract no longer generates it)`,
      );
  }
  try {
    for (const file of files) writeFileSync(join(dir, file.name), file.text);
    writeFileSync(join(dir, MANIFEST_NAME), manifestText(files));
  } catch (error) {
    throw new AssopayError(
      "usage",
      `--out ${dir}: cannot write the pact files (${(error as Error).message})`,
      {
        hint: "give a folder you can write to",
      },
    );
  }
  return { files, kept };
}

/** The bytes of a regular file; undefined for a missing path, a folder or a device (nothing to compare). */
function regularFile(path: string): Buffer | undefined {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? readFileSync(path) : undefined;
}

/**
 * Names of the generated files in `dir` that differ from what the contract generates now (missing ones
 * included), of files the manifest lists that the contract no longer generates, and the manifest itself
 * when it is out of date. Other files of the folder are not looked at.
 */
export function stalePacts(contract: Contract, dir: string): string[] {
  checkOutDir(dir, false);
  const files = generatePacts(contract);
  const stale: string[] = [];
  for (const file of files) {
    const path = join(dir, file.name);
    const bytes = regularFile(path);
    if (bytes === undefined || sha256(bytes) !== sha256(file.text)) stale.push(file.name);
  }
  const generated = new Set(files.map((f) => f.name));
  for (const entry of readManifest(dir)) {
    if (!generated.has(entry.name) && existsSync(join(dir, entry.name))) stale.push(entry.name);
  }
  const manifest = join(dir, MANIFEST_NAME);
  if (!existsSync(manifest) || readFileSync(manifest, "utf8") !== manifestText(files))
    stale.push(MANIFEST_NAME);
  return stale;
}
