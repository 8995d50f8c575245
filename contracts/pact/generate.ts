import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { makeDirSync } from "../../core/make-dir.js";
import type { Contract } from "../types.js";
import { documentInteractions } from "./document-interactions.js";
import { listingInteractions } from "./listing-interactions.js";
import {
  checkOutDir,
  looksGenerated,
  MANIFEST_NAME,
  manifestText,
  readManifest,
  sha256,
} from "./manifest.js";
import { messageInteractions } from "./message-interactions.js";
import { resourceInteractions } from "./resource-interactions.js";

export const CONSUMER = "assopay-consumer";
export const PROVIDER = "association-payment-api-v5";

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
  if (!first) return [];
  const before = new Date(`${first}T00:00:00Z`);
  before.setUTCDate(before.getUTCDate() - 1);
  return [before.toISOString().slice(0, 10) as IsoDay, ...days];
}

/** The file name of the pact for an era. */
export function pactFileName(asOf: IsoDay): string {
  return `${CONSUMER}-${PROVIDER}.as-of-${asOf}.json`;
}

/** The provider state every interaction of an era starts with: the provider answers as on that day. */
export const SERVICE_DATE_STATE = "the service date";

/**
 * An interaction's description in the file of an era: the era is part of it, so descriptions are unique
 * across every file and a broker accepts the folder published as one consumer version.
 */
export function eraDescription(description: string, asOf: IsoDay): string {
  return `${description} (as of ${asOf})`;
}

/** Builds the pact of one era from the catalogue, the schemas and the timeline. */
export function buildPact(contract: Contract, asOf: IsoDay): Record<string, unknown> {
  const interactions = [
    ...contract.routes.listings().flatMap((route) => listingInteractions(contract, route, asOf)),
    ...resourceInteractions(contract, asOf),
    ...documentInteractions(contract),
    ...messageInteractions(contract),
  ].map((i) => ({
    ...i,
    description: eraDescription(String(i.description), asOf),
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

/** The bytes of a regular file; undefined for a missing path, a folder or a device (nothing to compare). */
function regularFile(path: string): Buffer | undefined {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? readFileSync(path) : undefined;
}

/**
 * Writes the pact files to a folder with a manifest of what was written. Only files the previous run
 * listed in its manifest are removed or replaced; a file of the same name that this generator did not
 * write is never overwritten (a usage error, exit 2).
 */
export function writePacts(contract: Contract, dir: string): PactFile[] {
  checkOutDir(dir, true);
  try {
    makeDirSync(dir);
  } catch (error) {
    throw new AssopayError("usage", `--out ${dir}: ${(error as Error).message}`, {
      hint: "give --out a folder you can write to",
      cause: error,
    });
  }
  const previous = new Set(readManifest(dir).map((e) => e.name));
  const files = generatePacts(contract);
  for (const file of files) {
    const target = join(dir, file.name);
    if (previous.has(file.name) || !existsSync(target)) continue;
    const text = regularFile(target)?.toString("utf8");
    if (text === undefined || !looksGenerated(text, CONSUMER)) {
      throw new AssopayError("conflict", `${target} exists and was not written by 'assopay contracts'`, {
        hint: "move that file away or choose another --out folder; nothing was written",
      });
    }
  }
  const keep = new Set(files.map((f) => f.name));
  for (const name of previous) {
    if (!keep.has(name)) rmSync(join(dir, name), { force: true });
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
  return files;
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
