import type { CommandOutcome } from "../../core/run-command.js";
import type { FindingCollector } from "./findings.js";

/** The limits the command ran under, for the report. */
export interface RunLimits {
  readonly maxRequests: number;
  readonly timeoutMs: number;
  /** True when the command asked for more than `maxRequests`. */
  readonly budgetSpent: boolean;
  /** Requests made to a listing route. */
  readonly listingRequests: number;
}

/** The last lines of the command's stderr, then what the other findings of the run mean beside it. */
function crashDetails(outcome: CommandOutcome): string[] {
  const lines =
    outcome.stderrTail.length === 0
      ? ["it wrote nothing to stderr"]
      : [
          `the last ${outcome.stderrTail.length} lines of its stderr:`,
          ...outcome.stderrTail.map((l) => `  | ${l}`),
        ];
  return [
    ...lines,
    "its traffic was judged all the same: a rule broken below may only be where its early end left it",
  ];
}

/** Judges the run itself: bounded, exit code 0, and some traffic to judge. */
export function judgeRun(outcome: CommandOutcome, limits: RunLimits, collector: FindingCollector): void {
  switch (outcome.stoppedBy) {
    case "request-budget":
      collector.add("run.bounded", "stopped", {
        message: `the command used up its budget of ${limits.maxRequests} requests and was stopped (its whole process group)`,
        details: ["a command that never ends usually loops on a token or on a 401"],
      });
      break;
    case "time-limit":
      collector.add("run.bounded", "stopped", {
        message: `the command did not end within ${Math.round(limits.timeoutMs / 1000)} s and was stopped (its whole process group)`,
      });
      break;
    case "aborted":
      collector.add("run.bounded", "stopped", {
        message: "the gate was interrupted; the command was stopped",
      });
      break;
    case undefined:
      if (limits.budgetSpent) {
        collector.add("run.bounded", "stopped", {
          message: `the command asked for more than ${limits.maxRequests} requests (the extra ones got 503)`,
        });
      }
      if (outcome.exitCode !== 0) {
        collector.add("run.command-succeeds", "exit", {
          message:
            outcome.exitCode === null
              ? `the command crashed: ended by signal ${outcome.signal ?? "?"}`
              : `the command crashed: it exited with code ${outcome.exitCode}`,
          details: crashDetails(outcome),
          leads: true,
        });
      }
      break;
  }
  if (limits.listingRequests === 0) {
    collector.add("run.traffic-seen", "none", {
      message: "the command made no call to a listing through the gate: there was nothing to judge",
      details: ["does it read ASSOPAY_BASE_URL (or ASSOPAY_API_URL) and crawl a listing?"],
    });
  }
}
