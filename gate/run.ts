import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import { apiEnv, type CommandEnd, type RunningCommand, runCommand } from "../core/run-command.js";
import type { TrafficStep } from "../report/index.js";
import { interceptEnv } from "./intercept.js";
import { judgeTraffic } from "./judge/index.js";
import { type RunningLayer, startScenarioLayer } from "./layer/server.js";
import { type GateOptions, type ResolvedGateOptions, resolveGateOptions } from "./options.js";
import { type Scenario, scenarioDay } from "./scenarios.js";
import { startUpstream } from "./upstream.js";
import type { GateReport, ScenarioRun } from "./verdict.js";

/** How long the layer waits for the upstream before answering 502. */
const UPSTREAM_TIMEOUT_MS = 10_000;

/** What one scenario's command did: its traffic and how it ended, at the day the server ran at. */
export interface ServedScenario {
  readonly scenario: Scenario;
  readonly at: IsoDay;
  readonly exchanges: ReturnType<RunningLayer["exchanges"]>;
  readonly ended: CommandEnd;
  readonly budgetSpent: boolean;
}

/** Runs the command once against the scenario's server, at `at`, and keeps its traffic. */
async function serveScenario(
  o: ResolvedGateOptions,
  scenario: Scenario,
  at: IsoDay,
): Promise<ServedScenario> {
  const upstream = await startUpstream(o.upstream, scenario, at, o.contract, o.env);
  let command: RunningCommand | undefined;
  let budgetSpent = false;
  let ended: CommandEnd;
  const layer = await startScenarioLayer({
    upstream: upstream.url,
    scenario,
    contract: o.contract,
    maxRequests: o.maxRequests,
    seed: `assopay-gate:${o.seed}`,
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
    tokenBody: upstream.tokenBody,
    allowHosts: o.allowHosts,
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
        ...apiEnv(layer.url),
        ASSOPAY_AT: at,
        ASSOPAY_SCENARIO: scenario.name,
        ...interceptEnv(o.intercept, layer.url, o.env.NODE_OPTIONS),
      },
      timeoutMs: o.timeoutMs,
      onLine: (line, stream) => o.onOutput(line, scenario.name, stream),
      signal: o.signal,
    });
    ended = await command.done;
  } finally {
    await layer.close();
    await upstream.close();
  }
  if (ended.startError !== undefined) {
    throw new AssopayError("usage", `assopay gate: cannot run "${o.command.command}": ${ended.startError}`, {
      hint: "give the program and its arguments after --, without a shell (e.g. -- node client.mjs)",
    });
  }
  return {
    scenario,
    at,
    exchanges: layer.exchanges(),
    ended,
    budgetSpent: budgetSpent || layer.budgetSpent,
  };
}

/** Judges a scenario's traffic by the consumer rules as of `at` (the day it ran, or another day's rules). */
function judgeScenario(o: ResolvedGateOptions, served: ServedScenario, at: IsoDay): ScenarioRun {
  const { scenario, exchanges, ended } = served;
  const { findings, crawls } = judgeTraffic(exchanges, {
    contract: o.contract,
    rules: o.rules,
    scenario: scenario.name,
    at,
    ended,
    maxRequests: o.maxRequests,
    timeoutMs: o.timeoutMs,
    budgetSpent: served.budgetSpent,
    strict: o.strict,
    refusalsPlanned: scenario.faults.length,
  });
  return Object.freeze({
    scenario: scenario.name,
    summary: scenario.summary,
    at,
    passed: findings.every((f) => f.verdict !== "fail"),
    findings,
    requests: exchanges.length,
    crawls,
    command: ended,
    traffic: Object.freeze(exchanges.map(trafficStep)),
  });
}

/** One exchange as a step of the traffic timeline: what the page held, or why the gate answered. */
function trafficStep(exchange: ServedScenario["exchanges"][number]): TrafficStep {
  const r = exchange.response;
  const page = r?.page;
  const note =
    r === undefined
      ? "no answer (stopped)"
      : r.madeBy === "gate"
        ? `answered by the gate: ${r.reason ?? ""}`
        : page
          ? `${page.entries} entries, ${page.token === undefined ? "no token" : "a token"}`
          : undefined;
  return {
    seq: exchange.seq,
    method: exchange.method,
    url: exchange.rawUrl,
    ...(r?.status === undefined ? {} : { status: r.status }),
    ...(note === undefined ? {} : { note }),
  };
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
  return gateReport(o, await serveScenarios(o, o.scenarios, (s) => scenarioDay(s, o.contract, o.at)));
}

/** Serves each scenario in turn, at the day `dayOf` gives it, until the run is aborted. */
export async function serveScenarios(
  o: ResolvedGateOptions,
  scenarios: readonly Scenario[],
  dayOf: (scenario: Scenario) => IsoDay,
): Promise<ServedScenario[]> {
  const served: ServedScenario[] = [];
  for (const scenario of scenarios) {
    if (o.signal?.aborted) break;
    served.push(await serveScenario(o, scenario, dayOf(scenario)));
  }
  return served;
}

/**
 * The report of the served scenarios, each judged as of `at` (default: the day it ran): passed when at
 * least one ran and every one passed.
 */
export function gateReport(
  o: ResolvedGateOptions,
  served: readonly ServedScenario[],
  at?: IsoDay,
): GateReport {
  const runs = served.map((s) => judgeScenario(o, s, at ?? s.at));
  return Object.freeze({
    command: Object.freeze([o.command.command, ...o.command.args]),
    upstream: o.upstream.kind,
    passed: runs.length > 0 && runs.every((v) => v.passed),
    scenarios: Object.freeze(runs),
  });
}
