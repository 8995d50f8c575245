import type { CommandEnd, StopReason } from "../../core/run-command.js";
import type { RecordedExchange } from "../exchange.js";
import type { FindingCollector, FindingInput } from "./findings.js";
import type { JudgeContext } from "./index.js";
import { type RetryFacts, refusalText } from "./retries.js";

/** The layer's answers that are a scenario's planned refusals. */
const REFUSALS = new Set(["rate-limited", "unavailable", "connection-reset"]);

/** The last lines of the command's stderr, then what the other findings of the run mean beside it. */
function crashDetails(ended: CommandEnd): string[] {
  const lines =
    ended.stderrTail.length === 0
      ? ["it wrote nothing to stderr"]
      : [
          `the last ${ended.stderrTail.length} lines of its stderr:`,
          ...ended.stderrTail.map((l) => `  | ${l}`),
        ];
  return [
    ...lines,
    "its traffic was judged all the same: a rule broken below may only be where its early end left it",
  ];
}

/** What a retry loop at the end of the traffic says about a run the gate stopped. */
function loopDetails(retries: RetryFacts, otherwise: string[]): string[] {
  const loop = retries.loop;
  if (loop === undefined) return otherwise;
  return [
    `its last ${loop.count} requests were the same call, refused each time since ${refusalText(loop.first)}: retries need a bound`,
  ];
}

/** Judges the run itself under its limits: bounded, exit code 0, and some traffic to judge. */
export function judgeRun(
  exchanges: readonly RecordedExchange[],
  limits: JudgeContext,
  retries: RetryFacts,
  collector: FindingCollector,
): void {
  const { ended } = limits;
  const gaveUp = retries.unretried;
  if (ended.stoppedBy !== undefined) {
    const stopped: Record<StopReason, () => FindingInput> = {
      "request-budget": () => ({
        message: `the command used up its budget of ${limits.maxRequests} requests and was stopped (its whole process group)`,
        details: loopDetails(retries, ["a command that never ends usually loops on a token or on a 401"]),
      }),
      "time-limit": () => ({
        message: `the command did not end within ${Math.round(limits.timeoutMs / 1000)} s and was stopped (its whole process group)`,
        details: loopDetails(retries, []),
      }),
      aborted: () => ({ message: "the gate was interrupted; the command was stopped" }),
    };
    collector.add("run.bounded", "stopped", stopped[ended.stoppedBy]());
  } else {
    if (limits.budgetSpent) {
      collector.add("run.bounded", "stopped", {
        message: `the command asked for more than ${limits.maxRequests} requests (the extra ones got 503)`,
      });
    }
    if (ended.exitCode !== 0 && gaveUp !== undefined) {
      // A failure of the call the seed allows (Errors): reported, as surviving it is advice.
      collector.add("retry.survives-refusal", "gave-up", {
        message: `gave up after ${refusalText(gaveUp)} and ${ended.exitCode === null ? `ended by signal ${ended.signal ?? "?"}` : `exited with code ${ended.exitCode}`}: a failure of the call, which the seed allows`,
        exchange: gaveUp,
        details: crashDetails(ended),
      });
    } else if (ended.exitCode !== 0) {
      collector.add("run.command-succeeds", "exit", {
        message:
          ended.exitCode === null
            ? `the command crashed: ended by signal ${ended.signal ?? "?"}`
            : `the command crashed: it exited with code ${ended.exitCode}`,
        details: crashDetails(ended),
        leads: true,
      });
    }
  }
  const refused = exchanges.some((e) => REFUSALS.has(e.response?.reason ?? ""));
  if (!exchanges.some((e) => e.listingKey !== undefined)) {
    collector.add("run.traffic-seen", "none", {
      message: "the command made no call to a listing through the gate: there was nothing to judge",
      details: ["does it read ASSOPAY_BASE_URL (or ASSOPAY_API_URL) and crawl a listing?"],
    });
  } else if ((limits.refusalsPlanned ?? 0) > 0 && !refused && ended.stoppedBy === undefined) {
    collector.add("run.traffic-seen", "no-refusal", {
      message:
        "no listing call carried a continuation token, so the scenario's refusals never came: there was nothing to judge",
      details: ["crawl a listing of more than one page (the sandbox's form has --entries, default 65)"],
    });
  }
}
