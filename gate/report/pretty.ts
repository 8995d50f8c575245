import type { ConsumerRules } from "../consumer-rules.js";
import type { CommandOutcome } from "../run-command.js";
import type { Finding, GateReport, ScenarioVerdict } from "../verdict.js";

function ending(outcome: CommandOutcome): string {
  if (outcome.stoppedBy !== undefined) return `stopped (${outcome.stoppedBy})`;
  if (outcome.exitCode !== null) return `exit ${outcome.exitCode}`;
  return `ended by ${outcome.signal ?? "a signal"}`;
}

function findingLines(finding: Finding, rules: ConsumerRules): string[] {
  const lines = [
    `    ${finding.severity === "error" ? "✗" : "•"} ${finding.rule}${finding.severity === "advice" ? " (advice)" : ""}: ${finding.message}`,
  ];
  if (finding.request) {
    const r = finding.request;
    lines.push(
      `        request #${r.seq}: ${r.method} ${r.url}${r.status === undefined ? "" : ` → ${r.status}`}`,
    );
  }
  for (const detail of finding.details) lines.push(`        ${detail}`);
  if (finding.more > 0) lines.push(`        (${finding.more} more like it)`);
  if (finding.severity === "error") lines.push(`        fix: ${rules.byId(finding.rule).fix}`);
  return lines;
}

function scenarioLines(verdict: ScenarioVerdict, rules: ConsumerRules): string[] {
  const crawls = `${verdict.crawls} crawl${verdict.crawls === 1 ? "" : "s"}`;
  const head = `${verdict.passed ? "PASS" : "FAIL"} ${verdict.scenario} (${verdict.at}): ${verdict.requests} requests, ${crawls}, ${ending(verdict.command)}`;
  const lines = [head, `     ${verdict.summary}`];
  for (const finding of verdict.findings) lines.push(...findingLines(finding, rules));
  return lines;
}

/** The report for people: one block per scenario, each finding with its offending request and the fix. */
export function prettyGateReport(report: GateReport, rules: ConsumerRules): string {
  const lines = [`assopay gate: ${report.command.join(" ")} (against the ${report.upstream})`, ""];
  for (const verdict of report.scenarios) lines.push(...scenarioLines(verdict, rules), "");
  const failed = report.scenarios.filter((v) => !v.passed).length;
  lines.push(
    failed === 0
      ? `Result: every rule holds in ${report.scenarios.length} scenario${report.scenarios.length === 1 ? "" : "s"}.`
      : `Result: ${failed} of ${report.scenarios.length} scenarios break a rule.`,
    "",
  );
  return lines.join("\n");
}
