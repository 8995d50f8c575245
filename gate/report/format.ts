import { type ConsumerRules, GATE_RULE_IDS, type GateRuleId } from "../../contracts/consumer-rules.js";
import { ruleStartOf, type Timeline } from "../../contracts/index.js";
import type { CommandEnd } from "../../core/run-command.js";
import {
  datedSuites,
  type Finding,
  type PrettyOptions,
  type Report,
  type ReporterName,
  type ReportSuite,
  timelineMatrix,
  writeReport,
} from "../../report/index.js";
import type { GateReport, GateTimeline, ScenarioRun } from "../run.js";

/** The command ended by itself with a failure: its crash leads the scenario's verdict. */
const crashed = (ended: CommandEnd) =>
  ended.stoppedBy === undefined && ended.startError === undefined && ended.exitCode !== 0;

function ending(ended: CommandEnd): string {
  if (ended.stoppedBy !== undefined) return `stopped (${ended.stoppedBy})`;
  const how = ended.exitCode !== null ? `exit ${ended.exitCode}` : `ended by ${ended.signal ?? "a signal"}`;
  return crashed(ended) ? `crashed (${how})` : how;
}

/** The rules in report order; a crash first, since the rules after it may only be where it stopped. */
function ruleOrder(ended: CommandEnd): readonly GateRuleId[] {
  if (!crashed(ended)) return GATE_RULE_IDS;
  return ["run.command-succeeds", ...GATE_RULE_IDS.filter((rule) => rule !== "run.command-succeeds")];
}

/** Another finding of the same rule, told in one line. */
function alsoLine({ reason, evidence }: Finding): string {
  const r = evidence?.request;
  const status = evidence?.response?.status;
  return `also: ${reason}${r ? ` (#${r.seq} ${r.method} ${r.url}${status === undefined ? "" : ` → ${status}`})` : ""}`;
}

/** One rule in one scenario: its first failing finding (else its first warning), the others told after it. */
function ruleCase(rule: GateRuleId, run: ScenarioRun): Finding {
  const of = run.findings.filter((f) => f.rule === rule);
  const failed = of.filter((f) => f.verdict === "fail");
  const [first, ...others] = failed.length > 0 ? failed : of;
  if (!first) return { id: rule, rule, group: run.scenario, verdict: "pass", reason: "holds" };
  if (others.length === 0) return first;
  const diagnostics = [...(first.evidence?.diagnostics ?? []), ...others.map(alsoLine)];
  return { ...first, evidence: { ...first.evidence, diagnostics } };
}

function scenarioSuite(run: ScenarioRun): ReportSuite {
  const crawls = `${run.crawls} crawl${run.crawls === 1 ? "" : "s"}`;
  return {
    name: `gate ${run.scenario}`,
    heading: [
      `${run.passed ? "PASS" : "FAIL"} ${run.scenario} (${run.at}): ${run.requests} requests, ${crawls}, ${ending(run.command)}`,
      `     ${run.summary}`,
    ],
    properties: { at: run.at, summary: run.summary, requests: String(run.requests) },
    cases: ruleOrder(run.command).map((rule) => ruleCase(rule, run)),
    notes: [],
    durationMs: run.command.durationMs,
    ...(run.traffic ? { traffic: run.traffic } : {}),
  };
}

/** What served the command, as the report's header says it. */
const UPSTREAM_NAMES: Readonly<Record<GateReport["upstream"], string>> = {
  sandbox: "the sandbox",
  replay: "the replay",
  url: "a running server",
};

/** A gate run as the shared report model: one suite per scenario, one case per gate rule. */
export function gateReportModel(report: GateReport, rules: ConsumerRules): Report {
  const count = report.scenarios.length;
  const failed = report.scenarios.filter((v) => !v.passed).length;
  return {
    tool: "assopay gate",
    name: `assopay gate: ${report.command.join(" ")}`,
    header: `assopay gate: ${report.command.join(" ")} (against ${UPSTREAM_NAMES[report.upstream]})`,
    result:
      failed === 0
        ? `Result: every rule holds in ${count} scenario${count === 1 ? "" : "s"}.`
        : `Result: ${failed} of ${count} scenarios break a rule.`,
    passed: report.passed,
    suites: report.scenarios.map(scenarioSuite),
    rules: rules.all.filter((rule) => rule.applies === "gate"),
  };
}

/** Gate's own fields of the JSON report: its scenarios and their findings (the traffic is the HTML's). */
export function gateDetails(report: GateReport) {
  return { ...report, scenarios: report.scenarios.map(({ traffic: _traffic, ...v }) => v) };
}

/** Writes a gate report the chosen way; the JSON keeps gate's own `scenarios`, each finding with its fix. */
export function formatGateReport(
  report: GateReport,
  rules: ConsumerRules,
  reporter: ReporterName,
  options: PrettyOptions = { color: false },
): string {
  return writeReport(gateReportModel(report, rules), reporter, options, gateDetails(report));
}

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
    header: `assopay gate: ${command} (against ${UPSTREAM_NAMES[first?.upstream ?? "sandbox"]}, at ${t.runs.length} dates)`,
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
