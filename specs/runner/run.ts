import type { Writable } from "node:stream";
import { type Contract, loadContract, type Timeline } from "../../contracts/index.js";
import { SERVICE_DATE_STATE } from "../../contracts/pact/generate.js";
import { AssopayError, isAssopayError } from "../../core/errors.js";
import { countVerdicts, type Finding } from "../../core/finding.js";
import { packageVersion } from "../../core/paths.js";
import { createContext } from "./context.js";
import { type Deadline, withDeadline } from "./deadline.js";
import { createHttpClient, type OwnedHttpClient, TransportError, UnusableAnswer } from "./http.js";
import { createMemo, type Memo } from "./memo.js";
import type { VerifyOptions } from "./options.js";
import { createProgress, silentProgress } from "./progress.js";
import { selectChecks } from "./select.js";
import { createStateClient, withServiceDay } from "./states.js";
import { createTokenSource } from "./tokens.js";
import type { Transport } from "./transport.js";
import type { CheckResult, Evidence, PlannedPolicy, RunReport } from "./types.js";
import type { SpecCheck } from "./verdicts.js";

export interface RunIo {
  /** Where progress goes (a live line on a terminal, a periodic line otherwise). */
  stderr?: Writable & { isTTY?: boolean };
  signal?: AbortSignal;
  /** A contract already loaded (tests load it once). */
  contract?: Contract;
  /** Called as each check ends, for live output. */
  onOutcome?: (outcome: Finding) => void;
  /** Shared work (a run across dates shares a fixed-date provider's crawls between dates). */
  memo?: Memo;
  /** Keep the target at this day through its `the service date` state (a run across dates). */
  serviceDay?: string;
  /** What carries the run's exchanges (default: node:http to the target); tests plug in their own. */
  transport?: Transport;
}

/** A failure resting only on planned timeline entries becomes a warning under `--planned warn`. */
export function applyPlanned(result: CheckResult, policy: PlannedPolicy, timeline: Timeline): CheckResult {
  if (result.verdict !== "fail" || policy !== "warn" || !result.timeline || result.timeline.length === 0)
    return result;
  const planned = result.timeline.every(
    (id) => timeline.entries.find((e) => e.id === id)?.status === "planned",
  );
  if (!planned) return result;
  return {
    ...result,
    verdict: "warn",
    reason: `${result.reason} (planned change: --planned warn)`,
    downgraded: true,
  };
}

/** The names a check's finding carries, however the check ended. */
const namedAs = ({ id, group, rule, title }: SpecCheck) => ({ id, group, rule, title });

function unreachable(what: string, error: TransportError, hint: string): AssopayError {
  return new AssopayError("unreachable", `${what} does not answer: ${error.message}`, { hint, cause: error });
}

/**
 * A check that threw because of the target (an answer it could not use, a request the target left
 * unanswered) fails, with the evidence; anything else is verify's own fault (`error`).
 */
function targetFault(error: unknown): { reason: string; evidence: Evidence } | undefined {
  if (error instanceof UnusableAnswer) return { reason: error.message, evidence: error.evidence };
  if (error instanceof TransportError) {
    const { method, url } = error.request;
    return {
      reason: `${method} ${url} got no answer, so the check could not go on: ${error.message.replace(/^no answer from \S+: /, "")}`,
      evidence: { request: error.request },
    };
  }
  return undefined;
}

/** The report of a run that started at `started` (ms since the epoch) and gave `findings`. */
export function runReport(
  options: Pick<RunReport, "target" | "embedded" | "at" | "planned">,
  started: number,
  findings: Finding[],
): RunReport {
  return {
    target: options.target,
    embedded: options.embedded,
    at: options.at,
    planned: options.planned,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    outcomes: findings,
    summary: countVerdicts(findings.map((finding) => finding.verdict)),
  };
}

/**
 * Runs the selected checks against the target, one after another (provider states change the target's
 * data, so checks never overlap). A check that throws because of the target fails with the evidence;
 * one that throws for any other reason gets an `error` verdict; the run goes on.
 * Unreachable targets and refused credentials throw an `AssopayError` (exit 2) before any check.
 */
export async function runVerify(
  options: VerifyOptions,
  checks: readonly SpecCheck[],
  io: RunIo = {},
): Promise<RunReport> {
  const selected = selectChecks(checks, options.only);
  const contract = io.contract ?? loadContract();
  const deadline = withDeadline(
    io.signal ?? new AbortController().signal,
    options.runTimeoutMs,
    () => new Error(notRun(options)),
  );
  const http = createHttpClient({
    timeoutMs: options.requestTimeoutMs,
    signal: deadline.signal,
    userAgent: `assopay-contract/${packageVersion()} (verify)`,
    target: { base: options.target, apiRoot: options.apiRoot },
    ...(io.transport ? { transport: io.transport } : {}),
    concurrency: options.concurrency,
  });
  try {
    return await runWithin(options, selected, contract, { deadline, http }, io);
  } finally {
    http.close();
    deadline.done();
  }
}

/** The sentence for checks the run's time limit left unrun. */
function notRun(options: VerifyOptions): string {
  return `not run: the whole run's time limit (--timeout ${(options.runTimeoutMs ?? 0) / 1000} s) ran out first; raise --timeout, or run fewer checks with --only`;
}

async function runWithin(
  options: VerifyOptions,
  selected: readonly SpecCheck[],
  contract: Contract,
  { deadline, http }: { deadline: Deadline; http: OwnedHttpClient },
  io: RunIo,
): Promise<RunReport> {
  const signal = deadline.signal;
  const progress = io.stderr ? createProgress(io.stderr) : silentProgress;
  // The target moves to the run's day first: tokens are issued on its clock.
  const plain = options.stateUrl ? createStateClient(http, options.stateUrl) : undefined;
  const states = plain && io.serviceDay !== undefined ? withServiceDay(plain, io.serviceDay) : plain;
  if (plain && io.serviceDay !== undefined) {
    const set = await plain.setup(SERVICE_DATE_STATE, { day: io.serviceDay });
    if (!set.ok)
      throw new AssopayError("bad-input", `the target cannot move to ${io.serviceDay}: ${set.reason}`, {
        hint: 'a run across dates needs a target answering the "the service date" provider state; without --state-url each date judges today\'s behaviour',
      });
  }
  const tokens = createTokenSource(http, options.target, options.auth);
  await tokens.token("reader");
  if (tokens.has("admin")) await tokens.token("admin");
  // Without a token endpoint nothing above reached the target: one request shows that it answers.
  if (options.auth.kind !== "token-endpoint") {
    await http.send({ method: "GET", url: `${options.target}/v5` }).catch((error: unknown) => {
      if (!(error instanceof TransportError)) throw error;
      throw unreachable(
        "the target",
        error,
        "check --target (or ASSOPAY_TARGET) and that the provider is running",
      );
    });
  }
  const closers: (() => Promise<void> | void)[] = [];
  const context = createContext({
    contract,
    options,
    http,
    tokens,
    states,
    progress,
    signal,
    memo: io.memo ?? createMemo(),
    onClose: (task) => closers.push(task),
  });
  try {
    await context.coordinates();
  } catch (error) {
    if (error instanceof TransportError) {
      throw unreachable(
        `the state URL ${options.stateUrl}`,
        error,
        "check --state-url (or ASSOPAY_STATE_URL)",
      );
    }
    throw error;
  }
  const started = Date.now();
  const findings: Finding[] = [];
  const file = (finding: Finding) => {
    findings.push(finding);
    io.onOutcome?.(finding);
  };
  try {
    for (const check of selected) {
      if (signal.aborted) break;
      const begin = Date.now();
      let result: Pick<Finding, "verdict" | "reason" | "evidence" | "downgraded">;
      try {
        result = applyPlanned(await check.run(context), options.planned, contract.timeline);
      } catch (error) {
        progress.done();
        // A flag the user gave cannot be used (a --receiver-port in use): every check that needs it
        // would fail the same way, and it is the user's to fix, so it is the run's error (exit 2).
        // So does a target that keeps answering 429: a rate limit is not a verdict on any rule.
        if (isAssopayError(error) && (error.code === "usage" || error.code === "rate-limited")) throw error;
        const failed = signal.aborted ? undefined : targetFault(error);
        const why = error instanceof Error ? error.message : String(error);
        result = failed
          ? { verdict: "fail", ...failed }
          : { verdict: "error", reason: `the check could not run: ${why}` };
      }
      const durationMs = Date.now() - begin;
      // A check may have turned the rate limit's end into a verdict of its own: the run ends all the same.
      const refused = http.refusal();
      if (refused) throw refused;
      const { verdict, reason, evidence, downgraded } = result;
      file({
        ...namedAs(check),
        verdict,
        reason,
        ...(evidence === undefined ? {} : { evidence }),
        ...(downgraded ? { downgraded } : {}),
        durationMs,
      });
    }
  } finally {
    for (const close of closers.reverse()) await close();
  }
  if (deadline.expired()) {
    for (const check of selected.slice(findings.length)) {
      file({ ...namedAs(check), verdict: "error", reason: notRun(options), durationMs: 0 });
    }
  }
  return runReport(options, started, findings);
}
