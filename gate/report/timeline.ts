import type { ConsumerRules } from "../../contracts/consumer-rules.js";
import { ruleStartOf, type Timeline } from "../../contracts/index.js";
import {
  datedSuites,
  type PrettyOptions,
  type Report,
  type ReporterName,
  timelineMatrix,
  writeReport,
} from "../../report/index.js";
import type { GateTimeline } from "../timeline.js";
import { gateDetails, gateReportModel } from "./format.js";

/**
 * A gate run across dates as one report: each date's scenario suites, and the matrix of gate rules ×
 * dates (the worst verdict of the rule over that date's scenarios; a dated rule before its date is "not
 * yet in force" unless something broke it).
 */
export function gateTimelineReport(t: GateTimeline, rules: ConsumerRules, timeline: Timeline): Report {
  const dated = t.runs.map(({ date, report }) => ({ date, report: gateReportModel(report, rules) }));
  const first = t.runs[0]?.report;
  const command = first?.command.join(" ") ?? "";
  const failing = t.runs.filter(({ report }) => !report.passed).map(({ date }) => date.day);
  return {
    tool: "assopay gate",
    name: `assopay gate: ${command}`,
    header: `assopay gate: ${command} (against the ${first?.upstream ?? "sandbox"}, at ${t.runs.length} dates)`,
    result:
      failing.length === 0
        ? `Result: every rule holds at ${t.runs.length} dates.`
        : `Result: a rule is broken at ${failing.join(", ")}.`,
    passed: failing.length === 0,
    suites: datedSuites(dated),
    matrix: timelineMatrix({
      runs: dated,
      basis: t.basis,
      note: t.note,
      rowOf: (item) => item.rule,
      absent: { cell: "skip", reason: "no scenario ran at this date" },
      startOf: ruleStartOf(timeline, rules.all),
    }),
    rules: rules.all.filter((rule) => rule.applies === "gate"),
  };
}

/** Writes a gate run across dates; the JSON keeps each date's scenarios under `runs`. */
export function formatGateTimeline(
  t: GateTimeline,
  rules: ConsumerRules,
  timeline: Timeline,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
): string {
  const first = t.runs[0]?.report;
  return writeReport(gateTimelineReport(t, rules, timeline), reporter, options, {
    ...(first ? { command: first.command, upstream: first.upstream } : {}),
    runs: t.runs.map(({ date, report }) => ({ at: date.day, ...gateDetails(report) })),
  });
}
