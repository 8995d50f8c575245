import type { CheckOutcome, Evidence, RunReport, Verdict } from "../runner/types.js";

export interface PrettyOptions {
  color: boolean;
}

const MARK: Readonly<Record<Verdict, string>> = {
  pass: "✔ pass",
  fail: "✘ FAIL",
  skip: "- skip",
  warn: "! warn",
  error: "✘ ERROR",
};

const COLOR: Readonly<Record<Verdict, string>> = {
  pass: "\x1b[32m",
  fail: "\x1b[31m",
  skip: "\x1b[90m",
  warn: "\x1b[33m",
  error: "\x1b[31m",
};

const paint = (text: string, verdict: Verdict, options: PrettyOptions) =>
  options.color ? `${COLOR[verdict]}${text}\x1b[0m` : text;

/** One line per check: verdict, id, and the reason cut to a line. */
export function formatOutcomeLine(outcome: CheckOutcome, options: PrettyOptions): string {
  const reason = (outcome.reason ?? "").replace(/\s+/g, " ");
  const short = reason.length > 150 ? `${reason.slice(0, 149)}…` : reason;
  return `${paint(MARK[outcome.verdict].padEnd(7), outcome.verdict, options)} ${outcome.id.padEnd(42)} ${short}`.trimEnd();
}

function formatEvidence(evidence: Evidence): string[] {
  const lines = [`    request:  ${evidence.request.method} ${evidence.request.url}`];
  for (const [name, value] of Object.entries(evidence.request.headers ?? {}))
    lines.push(`              ${name}: ${value}`);
  if (evidence.response) {
    lines.push(`    response: ${evidence.response.status}`);
    lines.push(`    offending part: ${evidence.response.excerpt}`);
  }
  for (const line of evidence.diagnostics ?? []) lines.push(`      - ${line}`);
  return lines;
}

/** For each failure (and error): the rule, why, the request, and the offending part of the response. */
export function formatFailures(report: RunReport, options: PrettyOptions): string[] {
  const failed = report.outcomes.filter((o) => o.verdict === "fail" || o.verdict === "error");
  if (failed.length === 0) return [];
  const lines = ["", "Failures:"];
  failed.forEach((outcome, index) => {
    lines.push("");
    lines.push(paint(`${index + 1}) ${outcome.id}: ${outcome.title}`, outcome.verdict, options));
    lines.push(`    rule:     ${outcome.rule}`);
    lines.push(`    why:      ${outcome.reason ?? ""}`);
    if (outcome.evidence) lines.push(...formatEvidence(outcome.evidence));
  });
  return lines;
}

export function formatSummary(report: RunReport): string {
  const s = report.summary;
  const parts = [`${s.pass} passed`, `${s.fail} failed`, `${s.warn} warned`, `${s.skip} skipped`];
  if (s.error > 0) parts.push(`${s.error} errored`);
  const where = report.embedded ? `the embedded sandbox (${report.target})` : report.target;
  return `${parts.join(", ")} — ${where} as of ${report.at} in ${(report.durationMs / 1000).toFixed(1)} s`;
}

export function formatHeader(report: Pick<RunReport, "target" | "embedded" | "at" | "planned">): string {
  const where = report.embedded ? `the embedded sandbox at ${report.target}` : report.target;
  return `assopay verify: ${where}, as of ${report.at} (planned changes: ${report.planned})`;
}

/** The whole terminal report. */
export function formatPretty(report: RunReport, options: PrettyOptions): string {
  return [
    formatHeader(report),
    "",
    ...report.outcomes.map((o) => formatOutcomeLine(o, options)),
    ...formatFailures(report, options),
    "",
    formatSummary(report),
    "",
  ].join("\n");
}
