import type { Writable } from "node:stream";
import type { Contract, TimelineDate } from "../../contracts/index.js";
import { AssopayError } from "../../core/errors.js";
import { writeOwnedFile } from "../../core/owned-file.js";
import { redactSecretText } from "../../core/secrets/text.js";
import { useColor } from "../../report/index.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { type DatedRun, formatTimelineReport, type TimelineBasis } from "../../specs/report/timeline.js";
import { createMemo, sharingMemo } from "../../specs/runner/memo.js";
import { runVerify } from "../../specs/runner/run.js";
import { exitCodeOf } from "../../specs/runner/types.js";
import type { CommandContext } from "../command.js";
import { stringFlag } from "../flags.js";
import { dataFlag } from "./sandbox-data.js";
import { type Parsed, sandboxOptions, targetOptions } from "./verify-options.js";

/** What a provider at a fixed date answers the same at every date: its crawls and the coordinates. */
const SHARED_KEYS = ["coordinates", "crawl:", "completeness:"] as const;

/** How the dates are judged, said in the report: the basis and what is shared between dates. */
function basisOf(parsed: Parsed): TimelineBasis {
  if (parsed.target === undefined)
    return {
      basis: "behaviour-at-each-date",
      note: "A fresh embedded sandbox per date, started at that date, as a one-date run; shared between dates: the contract and its compiled schemas.",
    };
  if (stringFlag(parsed.flags, "state-url", { vars: parsed.env, name: "ASSOPAY_STATE_URL" }) !== undefined)
    return {
      basis: "behaviour-at-each-date",
      note: 'The target was moved to each date through its "the service date" provider state, and back to it after each teardown; shared between dates: the contract.',
    };
  return {
    basis: "one-behaviour-each-date-rules",
    note: "The target offers no provider states, so its date cannot be set: today's behaviour is judged by each date's rules. Its crawls were made once and judged at every date; checks that change its data ran at each date.",
  };
}

function write(stream: Writable, text: string) {
  stream.write(redactSecretText(text));
}

/**
 * `assopay verify --at-each`: one verify per date, reported as one report with a matrix. The embedded
 * sandbox is started afresh at each date; a target with a state URL is moved to each date; a target
 * without one is crawled once and judged by each date's rules.
 */
export async function verifyAcrossDates(
  context: CommandContext,
  parsed: Parsed,
  dates: readonly TimelineDate[],
  contract: Contract,
): Promise<number> {
  const how = basisOf(parsed);
  const shared = createMemo();
  const runs: DatedRun[] = [];
  const data = parsed.target === undefined ? dataFlag(parsed.flags, 1) : undefined;
  const progress = parsed.reporter === "pretty" || parsed.output !== undefined;
  for (const date of dates) {
    if (context.signal.aborted) break;
    const at = date.day;
    let sandbox: RunningSandbox | undefined;
    try {
      if (parsed.target === undefined)
        sandbox = await startSandbox({
          port: 0,
          at,
          shapes: parsed.shapes,
          contract,
          ...(data ? { data } : {}),
        });
      const options = sandbox
        ? sandboxOptions({ ...parsed, at }, sandbox)
        : targetOptions({ ...parsed, at }, parsed.target ?? "");
      const run = await runVerify(options, allChecks(), {
        contract,
        signal: context.signal,
        ...(sandbox === undefined && options.stateUrl === undefined
          ? { memo: sharingMemo(shared, SHARED_KEYS) }
          : {}),
        ...(sandbox === undefined && options.stateUrl !== undefined ? { serviceDay: at } : {}),
      });
      runs.push({ date, run });
      if (progress) {
        const s = run.summary;
        write(
          context.stderr,
          `${at} (${date.label}): ${s.pass} passed, ${s.fail} failed, ${s.warn} warned, ${s.skip} skipped${s.error > 0 ? `, ${s.error} errored` : ""}\n`,
        );
      }
    } finally {
      await sandbox?.close();
    }
  }
  const color = useColor(context.stdout as Writable & { isTTY?: boolean }, context.env);
  if (parsed.output !== undefined) {
    try {
      writeOwnedFile(parsed.output, formatTimelineReport(runs, how, contract, parsed.reporter));
    } catch (error) {
      throw new AssopayError(
        "bad-input",
        `cannot write the report to ${parsed.output}: ${(error as Error).message}`,
        { hint: "check that the folder exists and is writable" },
      );
    }
    write(context.stdout, formatTimelineReport(runs, how, contract, "pretty", { color }));
  } else {
    write(context.stdout, formatTimelineReport(runs, how, contract, parsed.reporter, { color }));
  }
  if (context.signal.aborted) return 2;
  return runs.every(({ run }) => exitCodeOf(run.summary) === 0) && runs.length === dates.length ? 0 : 1;
}
