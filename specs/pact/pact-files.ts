import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { IsoDay } from "../../core/dates.js";

/** The parts of a Pact V4 file this runner reads. */
export interface PactInteraction {
  type: string;
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  request?: { method?: string; path?: string; headers?: Record<string, string[] | string> };
  contents?: { content?: unknown };
  metadata?: Record<string, unknown>;
}

/** The `eventType` a message interaction's content names (anything, as the file has it). */
export function eventTypeOf(interaction: PactInteraction): unknown {
  return (interaction.contents?.content as { eventType?: unknown } | undefined)?.eventType;
}

export interface PactFile {
  file: string;
  asOf: string | undefined;
  provider: string;
  interactions: PactInteraction[];
  raw: Record<string, unknown>;
}

function read(file: string): PactFile | undefined {
  try {
    const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const metadata = raw.metadata as { assopay?: { asOf?: unknown } } | undefined;
    const asOfName = /as-of-(\d{4}-\d{2}-\d{2})\.json$/.exec(file)?.[1];
    const asOf = typeof metadata?.assopay?.asOf === "string" ? metadata.assopay.asOf : asOfName;
    return {
      file,
      asOf,
      provider: (raw.provider as { name?: string } | undefined)?.name ?? "provider",
      interactions: Array.isArray(raw.interactions) ? (raw.interactions as PactInteraction[]) : [],
      raw,
    };
  } catch {
    return undefined;
  }
}

/**
 * The Pact files that describe the contract at a date: for each consumer/provider pair, the latest file
 * whose `as-of` date is on or before it (the earliest when the date comes before them all). Files
 * without a date always apply.
 */
export function pactFilesAt(dir: string, at: IsoDay): PactFile[] {
  if (!existsSync(dir)) return [];
  const all = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => read(join(dir, name)))
    .filter((p): p is PactFile => p !== undefined);
  const groups = new Map<string, PactFile[]>();
  for (const pact of all) {
    const key = `${(pact.raw.consumer as { name?: string } | undefined)?.name ?? ""}|${pact.provider}`;
    groups.set(key, [...(groups.get(key) ?? []), pact]);
  }
  const chosen: PactFile[] = [];
  for (const group of groups.values()) {
    const undated = group.filter((p) => p.asOf === undefined);
    const dated = group
      .filter((p) => p.asOf !== undefined)
      .sort((a, b) => (a.asOf ?? "").localeCompare(b.asOf ?? ""));
    const before = dated.filter((p) => (p.asOf ?? "") <= at);
    const pick = before.at(-1) ?? dated[0];
    chosen.push(...undated, ...(pick ? [pick] : []));
  }
  return chosen;
}
