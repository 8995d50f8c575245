import { join } from "node:path";
import { contractsDir } from "../../core/paths.js";
import { dataError, readDataFile } from "../data-file.js";
import { operationKey } from "../document-coverage.js";
import { type LeftOutOperation, readLeftOut } from "../left-out.js";
import type { Timeline } from "../types.js";
import type { Difference, DriftKind } from "./compare.js";

/** A difference the contract knows of (contracts/divergences.yaml, `drift:`), with its reason. */
export interface KnownDrift {
  id: string;
  kinds: readonly DriftKind[];
  /** Matches the operation's key: `GET /v5/organizations/{}/forms/{}/{}/public` (names and case left out). */
  operation: RegExp;
  /** Matches the parameter or field; absent: any. */
  subject: RegExp | undefined;
  reason: string;
}

/** An entry as the file holds it: its patterns as text, and the timeline entry it may name. */
type RawKnown = Pick<KnownDrift, "id" | "kinds" | "reason"> & {
  operation: string;
  subject?: string;
  timeline?: string;
};

function pattern(file: string, line: number | undefined, text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (error) {
    throw dataError(
      file,
      line,
      `not a regular expression: ${text} (${(error as Error).message})`,
      "fix the pattern",
    );
  }
}

/**
 * Reads the known drifts of contracts/divergences.yaml (checked against contracts/meta/divergences.meta.json)
 * and the left-out operations of contracts/left-out.yaml. An entry naming a timeline entry borrows its date
 * and summary; one naming an entry the timeline lacks is a `bad-contract` error with its line.
 *
 * @example
 * const known = loadKnownDrift(contract.timeline);
 */
export function loadKnownDrift(
  timeline: Timeline,
  dir: string = contractsDir(),
): { known: readonly KnownDrift[]; leftOut: readonly LeftOutOperation[] } {
  const file = join(dir, "divergences.yaml");
  const yaml = readDataFile(join(dir, "meta"), "divergences", file, "divergences file");
  const known = (yaml.data as { drift: RawKnown[] }).drift.map((entry, i): KnownDrift => {
    const line = yaml.lineOf(["drift", i]);
    const dated = entry.timeline ? timeline.entries.find((e) => e.id === entry.timeline) : undefined;
    if (entry.timeline && !dated) {
      throw dataError(
        file,
        line,
        `known drift "${entry.id}" names the timeline entry "${entry.timeline}", which the timeline lacks`,
        `add it to ${timeline.source} or drop the reference`,
      );
    }
    return {
      id: entry.id,
      kinds: entry.kinds,
      operation: pattern(file, line, entry.operation),
      subject: entry.subject === undefined ? undefined : pattern(file, line, entry.subject),
      reason: dated
        ? `${entry.reason} (timeline ${dated.id}, ${dated.date}: ${dated.summary})`
        : entry.reason,
    };
  });
  return { known, leftOut: readLeftOut(dir) };
}

/** The known drift or left-out operation that explains a difference, as a reason; `undefined` when none. */
export function explanationOf(
  difference: Difference,
  known: readonly KnownDrift[],
  leftOut: readonly LeftOutOperation[],
): { id: string; reason: string } | undefined {
  const [method = "", path = ""] = difference.operation.split(" ");
  const key = operationKey(method, path);
  if (difference.kind === "operation-added") {
    const omitted = leftOut.find((o) => operationKey(o.method, o.path) === key);
    if (omitted) return { id: "left-out", reason: omitted.reason };
  }
  const found = known.find(
    (k) =>
      k.kinds.includes(difference.kind) &&
      k.operation.test(key) &&
      (k.subject === undefined || k.subject.test(difference.subject)),
  );
  return found ? { id: found.id, reason: found.reason } : undefined;
}
