import { join } from "node:path";
import { loadConsumerRules, type Severity } from "../../contracts/consumer-rules.js";
import { loadContract } from "../../contracts/index.js";
import type { Finding } from "../../core/finding.js";
import { packageRoot } from "../../core/paths.js";
import type { GateOptions } from "../../gate/options.js";
import { type GateReport, runGate, type ScenarioRun } from "../../gate/run.js";
import type { ScenarioName } from "../../gate/scenarios.js";

/** Loaded once per test file. */
export const contract = loadContract();
export const rules = loadConsumerRules();

export function clientPath(name: string): string {
  return join(packageRoot(), "test", "gate", "fixtures", "clients", `${name}.mjs`);
}

/** Runs the gate on a test client: small data, a small budget, output kept for failure messages. */
export async function gateClient(
  name: string,
  scenarios: readonly ScenarioName[],
  extra: Partial<GateOptions> = {},
): Promise<GateReport & { output: string[] }> {
  const output: string[] = [];
  const report = await runGate({
    command: [process.execPath, clientPath(name)],
    scenarios,
    entries: 45,
    maxRequests: 60,
    timeoutSeconds: 600,
    contract,
    rules,
    onOutput: (line, scenario) => output.push(`[${scenario}] ${line}`),
    ...extra,
  });
  return { ...report, output };
}

/** The verdict of one scenario of a report. */
export function verdictOf(report: GateReport, scenario: ScenarioName): ScenarioRun {
  const found = report.scenarios.find((v) => v.scenario === scenario);
  if (!found) throw new Error(`no verdict for ${scenario}`);
  return found;
}

/** The rule ids of a verdict's error findings. */
export function brokenRules(verdict: ScenarioRun): string[] {
  return [...new Set(verdict.findings.filter((f) => f.verdict === "fail").map((f) => f.rule))].sort();
}

/** A finding's severity as its report tells it: a failure is an error; a warning says advice or robustness. */
export function severityOf(f: Finding): Severity {
  if (f.verdict === "fail") return "error";
  return f.reason.startsWith("(robustness") ? "robustness" : "advice";
}

/** How many more requests broke the rule the same way (the finding's `(n more like it)`). */
export function moreOf(f: Finding | undefined): number {
  const line = f?.evidence?.diagnostics?.find((d) => /^\(\d+ more like it\)$/.test(d));
  return line ? Number.parseInt(line.slice(1), 10) : 0;
}
