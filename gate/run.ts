import type { TimelineDate } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import type { Finding } from "../core/finding.js";
import { apiEnv, type CommandEnd, type RunningCommand, runCommand } from "../core/run-command.js";
import type { MatrixBasis, TrafficStep } from "../report/index.js";
import { interceptEnv } from "./intercept.js";
import { judgeTraffic } from "./judge/index.js";
import { type RunningLayer, startScenarioLayer } from "./layer/server.js";
import { type GateOptions, type ResolvedGateOptions, resolveGateOptions } from "./options.js";
import { type Scenario, type ScenarioName, scenarioDay } from "./scenarios.js";
import { startUpstream } from "./upstream.js";

/** One scenario as run: its findings (the one result type) and what the run saw. Nothing here throws. */
export interface ScenarioRun {
  readonly scenario: ScenarioName;
  readonly summary: string;
  /** The date the server ran at. */
  readonly at: IsoDay;
  /** True when no finding fails. */
  readonly passed: boolean;
  /** One per broken rule and subject (a crawl, a token …), ordered by their first offending request. */
  readonly findings: readonly Finding[];
  readonly requests: number;
  readonly crawls: number;
  readonly command: CommandEnd;
  /** Every request in order, for the HTML report's traffic timeline (left out of the JSON report). */
  readonly traffic?: readonly TrafficStep[];
}

/** The whole run: every scenario, in the order run. */
export interface GateReport {
  readonly command: readonly string[];
  readonly upstream: "sandbox" | "replay" | "url";
  readonly passed: boolean;
  readonly scenarios: readonly ScenarioRun[];
}

/** How long the layer waits for the upstream before answering 502. */
const UPSTREAM_TIMEOUT_MS = 10_000;

/** What one scenario's command did: its traffic and how it ended, at the day the server ran at. */
export type ServedScenario = Awaited<ReturnType<typeof serveScenario>>;

/** Runs the command once against the scenario's server, at `at`, and keeps its traffic. */
async function serveScenario(o: ResolvedGateOptions, scenario: Scenario, at: IsoDay) {
  const upstream = await startUpstream(o.upstream, scenario, at, o.contract, o.env);
  let command: RunningCommand | undefined;
  let layer: RunningLayer | undefined;
  let ended: CommandEnd;
  try {
    layer = await startScenarioLayer({
      upstream: upstream.url,
      scenario,
      contract: o.contract,
      maxRequests: o.maxRequests,
      seed: `assopay-gate:${o.seed}`,
      upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
      tokenBody: upstream.tokenBody,
      allowHosts: o.allowHosts,
      onBudgetSpent: () => command?.stop("request-budget"),
    });
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
    await layer?.close();
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
    budgetSpent: layer.budgetSpent,
  };
}

/** Judges a scenario's traffic by the consumer rules as of `at` (the day it ran, or another day's rules). */
function judgeScenario(o: ResolvedGateOptions, served: ServedScenario, at: IsoDay): ScenarioRun {
  const { scenario, exchanges, ended } = served;
  const { findings, crawls } = judgeTraffic(exchanges, {
    ...o,
    scenario: scenario.name,
    at,
    ended,
    budgetSpent: served.budgetSpent,
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

/** One date of a gate run across dates. */
export interface DatedGate {
  readonly date: TimelineDate;
  readonly report: GateReport;
}

/** A gate run across dates: each date's report, and which scenarios were left out and why. */
export interface GateTimeline {
  readonly runs: readonly DatedGate[];
  /** How the dates were judged, for the report. */
  readonly basis: MatrixBasis;
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
