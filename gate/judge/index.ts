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

const byGate = new Set(["rate-limited", "unavailable", "connection-reset"]);

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
  const { contract, at } = context;
  const removal = contract.timeline.entry("count-fields-removed");
  const commandStopped = context.ended.stoppedBy !== undefined || context.budgetSpent;
  const crawls = judgeCrawls(exchanges, collector, {
    commandStopped,
    countsNote: (exchange) => {
      if (!exchange.route || !removal) return undefined;
      const rules = contract.timeline.datedRulesAt(contract.routes.byId(exchange.route.id), at);
      return rules.countMode === "absent"
        ? `totalCount and totalPages are removed since ${removal.date}`
        : undefined;
    },
  });
  judgeAuth(exchanges, collector, context.rules);
  judgeDated(exchanges, collector, contract, at);
  const retries = judgeRetries(exchanges, collector, {
    commandStopped,
    exitedZero: context.ended.exitCode === 0,
  });
  judgeRun(
    {
      ...context,
      listingRequests: exchanges.filter((e) => e.listingKey !== undefined).length,
      refusals: {
        planned: context.refusalsPlanned ?? 0,
        answered: exchanges.filter((e) => byGate.has(e.response?.reason ?? "")).length,
      },
      retries,
    },
    collector,
  );
  return { findings: collector.findings(), crawls };
}
