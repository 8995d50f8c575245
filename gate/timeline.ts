import type { TimelineDate } from "../contracts/index.js";
import { type GateOptions, resolveGateOptions } from "./options.js";
import { gateReport, judgeScenario, type ServedScenario, serveScenario } from "./run.js";
import type { GateReport, ScenarioRun } from "./verdict.js";

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
  const report = (runs: readonly ScenarioRun[]) => gateReport(o, runs);
  if (o.upstream.kind === "replay") {
    const served: ServedScenario[] = [];
    for (const scenario of scenarios) {
      if (o.signal?.aborted) break;
      served.push(await serveScenario(o, scenario, o.at));
    }
    return {
      basis: "one-behaviour-each-date-rules",
      note: `A replay serves one recorded behaviour: the command ran once per scenario (ASSOPAY_AT ${o.at}) and its traffic was judged by each date's rules.${leftNote}`,
      runs: dates.map((date) => ({ date, report: report(served.map((s) => judgeScenario(o, s, date.day))) })),
    };
  }
  const runs: DatedGate[] = [];
  for (const date of dates) {
    const scenarioRuns: ScenarioRun[] = [];
    for (const scenario of scenarios) {
      if (o.signal?.aborted) break;
      scenarioRuns.push(judgeScenario(o, await serveScenario(o, scenario, date.day), date.day));
    }
    runs.push({ date, report: report(scenarioRuns) });
  }
  return {
    basis: "behaviour-at-each-date",
    note: `The command ran against a fresh sandbox at each date, once per scenario; shared between dates: the contract and the consumer rules.${leftNote}`,
    runs,
  };
}
