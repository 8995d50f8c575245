import { type Timeline, type TimelineDate, timelineBoundaries } from "../../contracts/index.js";
import { type IsoDay, parseIsoDay, todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { type FlagSpec, type ParsedFlags, stringFlag } from "../flags.js";

/**
 * `--at-each timeline|DAY,DAY…`: one run judged at several dates. Named beside `--at DAY` (one date): "at
 * each" of the timeline's boundaries, or at each day of a list.
 */
export const AT_EACH_FLAG: FlagSpec = { "at-each": { type: "string" } };

/** The flag's lines in a verb's help, its explanation starting at `column` (where the verb's others do). */
export function atEachHelp(column: number): string {
  const pad = " ".repeat(column);
  return [
    "  --at-each timeline|DAY,DAY...",
    `${pad}one run at several dates, reported as one matrix (rules x dates): "timeline" is`,
    `${pad}the day before and the day of each dated change of contracts/timeline.yaml, plus`,
    `${pad}today; or a comma-separated list of days. Excludes --at (docs/report.md)`,
  ].join("\n");
}

/**
 * The dates of `--at-each`, in date order, each once; undefined without the flag. `timeline` gives every
 * boundary of the timeline; a list's days keep the boundary's name where they fall on one. A bad day,
 * an empty list or `--at` beside it is a usage error (exit 2).
 *
 * @example
 * atEachFlag("lint", flags, contract.timeline); // [{ day: "2024-12-15", label: "day before withcount-introduced" }, …]
 */
export function atEachFlag(
  verb: string,
  flags: ParsedFlags,
  timeline: Timeline,
  today: IsoDay = todayIso(),
): TimelineDate[] | undefined {
  const text = stringFlag(flags, "at-each");
  if (text === undefined) return undefined;
  if (stringFlag(flags, "at") !== undefined) {
    throw new AssopayError("usage", `assopay ${verb}: --at and --at-each exclude each other`, {
      hint: "--at judges one date; --at-each timeline (or --at-each DAY,DAY) judges several in one run",
    });
  }
  const boundaries = timelineBoundaries(timeline, today);
  if (text.trim() === "timeline") return boundaries;
  const days = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (days.length === 0) {
    throw new AssopayError("usage", `assopay ${verb}: --at-each needs "timeline" or a list of days`, {
      hint: "for example --at-each timeline, or --at-each 2025-06-29,2025-06-30",
    });
  }
  const unique = [...new Set(days.map((day) => parseIsoDay(day, "--at-each")))].sort();
  return unique.map((day) => ({
    day,
    label: boundaries.find((b) => b.day === day)?.label ?? "given",
  }));
}
