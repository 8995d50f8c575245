import { AssopayError } from "../core/errors.js";
import { judgeTraffic } from "./judge/index.js";
import { startScenarioLayer } from "./layer/server.js";
import { type GateOptions, type ResolvedGateOptions, resolveGateOptions } from "./options.js";
import { type CommandOutcome, type RunningCommand, runCommand } from "./run-command.js";
import { type Scenario, scenarioDay } from "./scenarios.js";
import { startUpstream } from "./upstream.js";
import type { GateReport, ScenarioVerdict } from "./verdict.js";

/** How long the layer waits for the upstream before answering 502. */
const UPSTREAM_TIMEOUT_MS = 10_000;

async function runScenario(o: ResolvedGateOptions, scenario: Scenario): Promise<ScenarioVerdict> {
  const at = scenarioDay(scenario, o.contract, o.at);
  const upstream = await startUpstream(o.upstream, at, o.contract, o.env);
  let command: RunningCommand | undefined;
  let budgetSpent = false;
  let outcome: CommandOutcome;
  const layer = await startScenarioLayer({
    upstream: upstream.url,
    scenario,
    contract: o.contract,
    maxRequests: o.maxRequests,
    seed: `assopay-gate:${o.seed}`,
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
    tokenBody: upstream.tokenBody,
    onBudgetSpent: () => {
      budgetSpent = true;
      command?.stop("request-budget");
    },
  }).catch(async (error: unknown) => {
    await upstream.close();
    throw error;
  });
  try {
    command = runCommand(o.command, {
      env: {
        ...o.env,
        ...upstream.login,
        ASSOPAY_BASE_URL: layer.url,
        ASSOPAY_API_URL: `${layer.url}/v5`,
        ASSOPAY_TOKEN_URL: `${layer.url}/oauth2/token`,
        ASSOPAY_AT: at,
        ASSOPAY_SCENARIO: scenario.name,
      },
      timeoutMs: o.timeoutMs,
      onLine: (line, stream) => o.onOutput(line, scenario.name, stream),
      signal: o.signal,
    });
    outcome = await command.done;
  } finally {
    await layer.close();
    await upstream.close();
  }
  if (outcome.startError !== undefined) {
    throw new AssopayError(
      "usage",
      `assopay gate: cannot run "${o.command.command}": ${outcome.startError}`,
      {
        hint: "give the program and its arguments after --, without a shell (e.g. -- node client.mjs)",
      },
    );
  }
  const exchanges = layer.exchanges();
  const { findings, crawls } = judgeTraffic(exchanges, {
    contract: o.contract,
    rules: o.rules,
    at,
    outcome,
    maxRequests: o.maxRequests,
    timeoutMs: o.timeoutMs,
    budgetSpent: budgetSpent || layer.budgetSpent,
    strict: o.strict,
  });
  return Object.freeze({
    scenario: scenario.name,
    summary: scenario.summary,
    at,
    passed: findings.every((f) => f.severity !== "error"),
    findings,
    requests: exchanges.length,
    crawls,
    command: outcome,
  });
}

/**
 * Runs the command once per scenario, each time against a fresh server (sandbox or replay) behind the
 * scenario layer, and judges the traffic it made against the consumer rules. Usage mistakes throw an
 * `AssopayError`; broken rules are findings in the report.
 *
 * @example
 * const report = await runGate({ command: ["node", "crawl.mjs"], env: process.env, scenarios: ["uniform"] });
 * process.exitCode = report.passed ? 0 : 1;
 */
export async function runGate(options: GateOptions): Promise<GateReport> {
  const o = resolveGateOptions(options);
  const verdicts: ScenarioVerdict[] = [];
  for (const scenario of o.scenarios) {
    if (o.signal?.aborted) break;
    verdicts.push(await runScenario(o, scenario));
  }
  return Object.freeze({
    command: Object.freeze([o.command.command, ...o.command.args]),
    upstream: o.upstream.kind,
    passed: verdicts.length > 0 && verdicts.every((v) => v.passed),
    scenarios: Object.freeze(verdicts),
  });
}
