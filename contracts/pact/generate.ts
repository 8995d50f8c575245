import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IsoDay } from "../../core/dates.js";
import type { Contract } from "../types.js";
import { documentInteractions } from "./document-interactions.js";
import { listingInteractions } from "./listing-interactions.js";
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

/** Builds the pact of one era from the catalogue, the schemas and the timeline. */
export function buildPact(contract: Contract, asOf: IsoDay): Record<string, unknown> {
  const interactions = [
    ...contract.routes.listings().flatMap((route) => listingInteractions(contract, route, asOf)),
    ...resourceInteractions(contract, asOf),
    ...documentInteractions(contract),
    ...messageInteractions(contract),
  ];
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
          "Authorization 'Bearer assopay:reader' and 'Bearer assopay:admin' are placeholders the verifier replaces",
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

/** Writes the pact files to a folder, removing pact files of eras that no longer exist. */
export function writePacts(contract: Contract, dir: string): PactFile[] {
  mkdirSync(dir, { recursive: true });
  const files = generatePacts(contract);
  const keep = new Set(files.map((f) => f.name));
  for (const entry of readdirSync(dir)) {
    if (entry.endsWith(".json") && !keep.has(entry)) rmSync(join(dir, entry));
  }
  for (const file of files) writeFileSync(join(dir, file.name), file.text);
  return files;
}

/** Names of committed pact files that differ from what the contract generates now (missing ones included). */
export function stalePacts(contract: Contract, dir: string): string[] {
  const present = new Set(readdirSync(dir).filter((f) => f.endsWith(".json")));
  const stale: string[] = [];
  for (const file of generatePacts(contract)) {
    if (!present.has(file.name) || readFileSync(join(dir, file.name), "utf8") !== file.text)
      stale.push(file.name);
    present.delete(file.name);
  }
  return [...stale, ...present];
}
