import type { IsoDay } from "../../core/dates.js";
import type { Finding } from "../../core/finding.js";
import type { CommandEnd } from "../../core/run-command.js";
import type { RecordedExchange } from "../exchange.js";
import type { ResolvedGateOptions } from "../options.js";
import { judgeAuth } from "./auth.js";
import { judgeCrawls } from "./crawls.js";
import { judgeDated } from "./dated.js";
import { createFindingCollector } from "./findings.js";
import { judgeRetries } from "./retries.js";
import { judgeRun } from "./run.js";

/** Everything a scenario's judgement depends on besides the traffic. */
export interface JudgeContext
  extends Pick<ResolvedGateOptions, "contract" | "rules" | "maxRequests" | "timeoutMs"> {
  /** The scenario judged: its findings' group. */
  readonly scenario: string;
  /** The date the server ran at. */
  readonly at: IsoDay;
  /** How the command ended. */
  readonly ended: CommandEnd;
  readonly budgetSpent: boolean;
  /** `--strict`: robustness advice (a fresh token after a 401 …) fails the run. */
  readonly strict?: boolean;
  /** How many refusals the scenario planned mid-crawl (default 0). */
  readonly refusalsPlanned?: number;
}

/**
 * Judges one scenario's recorded traffic against the consumer rules: its findings, and how many crawls
 * it made. A pure function of its inputs: the same traffic always gives the same findings.
 *
 * @example
 * const { findings } = judgeTraffic(layer.exchanges(), { contract, rules, scenario: "uniform", at, ended, maxRequests: 500,
 *   timeoutMs: 60_000, budgetSpent: layer.budgetSpent });
 */
export function judgeTraffic(
  exchanges: readonly RecordedExchange[],
  context: JudgeContext,
): { readonly findings: readonly Finding[]; readonly crawls: number } {
  const collector = createFindingCollector(context.rules, context.scenario, context.strict === true);
  const commandStopped = context.ended.stoppedBy !== undefined || context.budgetSpent;
  const crawls = judgeCrawls(exchanges, collector, context, commandStopped);
  judgeAuth(exchanges, collector, context.rules);
  judgeDated(exchanges, collector, context);
  const retries = judgeRetries(exchanges, collector, context, commandStopped);
  judgeRun(exchanges, context, retries, collector);
  return { findings: collector.findings(), crawls };
}
