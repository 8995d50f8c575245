import type { TimelineDate } from "../contracts/index.js";
import { type GateOptions, resolveGateOptions } from "./options.js";
import { gateReport, serveScenarios } from "./run.js";
import type { GateReport } from "./verdict.js";

/** One date of a gate run across dates. */
export interface DatedGate {
  readonly date: TimelineDate;
  readonly report: GateReport;
}

/** A gate run across dates: each date's report, and which scenarios were left out and why. */
export interface GateTimeline {
  readonly runs: readonly DatedGate[];
  /** How the dates were judged, for the report. */
  readonly basis: "behaviour-at-each-date" | "one-behaviour-each-date-rules";
  readonly note: string;
}

/**
 * Runs gate at several dates. Only the undated scenarios run (the dated ones exist to put the server the
 * day before or the day of a change, which the dates of the run already do). Against the sandbox, each
 * date runs the command against a sandbox at that date. Against a replay (a recording, one behaviour),
 * the command runs once per scenario and its traffic is judged by each date's rules.
 *
 * @example
 * const t = await runGateAcrossDates({ command: ["node", "crawl.mjs"] }, timelineBoundaries(contract.timeline));
 */
export async function runGateAcrossDates(
  options: GateOptions,
  dates: readonly TimelineDate[],
): Promise<GateTimeline> {
  const o = resolveGateOptions(options);
  const scenarios = o.scenarios.filter((s) => s.date.kind === "given");
  const left = o.scenarios.filter((s) => s.date.kind !== "given").map((s) => s.name);
  const leftNote =
    left.length === 0 ? "" : ` Dated scenarios left out (the dates stand in for them): ${left.join(", ")}.`;
  const replay = o.upstream.kind === "replay";
  const once = replay ? await serveScenarios(o, scenarios, () => o.at) : undefined;
  const runs: DatedGate[] = [];
  for (const date of dates) {
    const served = once ?? (await serveScenarios(o, scenarios, () => date.day));
    runs.push({ date, report: gateReport(o, served, date.day) });
  }
  return {
    basis: replay ? "one-behaviour-each-date-rules" : "behaviour-at-each-date",
    note: `${
      replay
        ? `A replay serves one recorded behaviour: the command ran once per scenario (ASSOPAY_AT ${o.at}) and its traffic was judged by each date's rules.`
        : "The command ran against a fresh sandbox at each date, once per scenario; shared between dates: the contract and the consumer rules."
    }${leftNote}`,
    runs,
  };
}
