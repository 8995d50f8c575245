import { type Contract, loadContract } from "../../contracts/index.js";
import { packageVersion } from "../../core/paths.js";
import type { Finding } from "../../report/index.js";
import { withDeadline } from "../runner/deadline.js";
import { createHttpClient, type HttpClient, isSuccess, parseJson, TransportError } from "../runner/http.js";
import { runReport } from "../runner/run.js";
import { createTokenSource } from "../runner/tokens.js";
import type { RunReport } from "../runner/types.js";
import { judgeRerunCrawls, noteRecordedPage } from "./crawls.js";
import { type DeriveContext, deriveRequest } from "./derive.js";
import { type Exchange, emptyJudgement, stepFinding, unjudgedFinding } from "./finding.js";
import { createListings } from "./listings.js";
import type { RerunOptions } from "./options.js";
import { judgeListing } from "./page.js";
import { judgeResource } from "./resource.js";
import { compareShapes } from "./shape.js";
import { judgeStatus } from "./status.js";
import { loadSteps, type RerunStep, recordedJson } from "./steps.js";
import { createLearntValues } from "./values.js";

export interface RerunIo {
  signal?: AbortSignal;
  /** A contract already loaded (tests load it once). */
  contract?: Contract;
  /** Called as each interaction is judged, for live output. */
  onOutcome?: (outcome: Finding) => void;
  /** Called with what loading left out (documents cut short, notifications). */
  onNote?: (note: string) => void;
}

interface Session extends DeriveContext {
  options: RerunOptions;
  contract: Contract;
  http: HttpClient;
}

/** Sends one step, judges the answer by the rules at `--at` and compares it with the recording. */
async function rerunStep(session: Session, step: RerunStep): Promise<Finding> {
  const { contract, options, values, listings } = session;
  const recordedBody = recordedJson(step);
  const derived = await deriveRequest(step, session);
  if (!derived.ok) {
    values.learn(step.index, recordedBody);
    if (step.match?.route.pagination) {
      const crawl = listings.crawlFor(step);
      crawl.broken ??= `(${step.id}) was not re-sent`;
      noteRecordedPage(crawl, step, recordedBody);
    }
    return unjudgedFinding(step, "skip", `not re-sent: ${derived.reason}`);
  }
  const begin = Date.now();
  let target: Exchange["target"];
  try {
    target = await session.http.send(derived.request);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    values.learn(step.index, recordedBody);
    return unjudgedFinding(step, "error", `no answer: ${error.message}`, Date.now() - begin);
  }
  const parsed = parseJson(target);
  const targetBody = parsed.ok ? parsed.value : undefined;
  const route = step.match?.route;
  const exchange: Exchange = {
    step,
    route,
    rules: route ? contract.timeline.datedRulesAt(route, options.at) : undefined,
    recorded: { status: step.interaction.response.status, body: recordedBody },
    target,
    targetBody,
    query: derived.sentQuery,
    sameResource: derived.request.url.split("?")[0] === `${options.target}${step.interaction.request.path}`,
  };
  const judgement = emptyJudgement(step, options.planned, contract.timeline);
  const crawl = route?.pagination ? listings.crawlFor(step) : undefined;
  if (crawl) noteRecordedPage(crawl, step, recordedBody);
  const served = judgeStatus(exchange, judgement, contract.timeline.entries);
  if (served && crawl)
    await judgeListing(session.http, exchange, derived.request, crawl, judgement, contract);
  else if (served) judgeResource(exchange, judgement, contract);
  else if (crawl) crawl.broken = `(${step.id}) was refused with ${target.status}`;
  const comparable = isSuccess(target.status) === isSuccess(exchange.recorded.status);
  const shape =
    comparable && recordedBody !== undefined && targetBody !== undefined
      ? compareShapes(recordedBody, targetBody, judgement.explained)
      : [];
  values.learn(step.index, recordedBody);
  values.answer(step.index, targetBody);
  return stepFinding(step, target.request, judgement, shape, Date.now() - begin);
}

/**
 * Re-sends every recorded request of the cassettes against the target, in order, and judges each
 * answer: the contract's rules at `--at`, dated changes since the recording named after their timeline
 * entry, and differences of structure from the recorded answer. One finding per interaction, in the
 * report shape verify's reporters read. Bad cassettes, refused credentials and an unreachable target
 * throw an `AssopayError` (exit 2).
 *
 * @example
 * const report = await runRerun(resolveRerunOptions({ cassettes: ["session.yaml"], target, at, reader }));
 */
export async function runRerun(options: RerunOptions, io: RerunIo = {}): Promise<RunReport> {
  const contract = io.contract ?? loadContract();
  const { steps, notes } = await loadSteps(options.cassettes, contract);
  for (const note of notes) io.onNote?.(note);
  const deadline = withDeadline(
    io.signal ?? new AbortController().signal,
    options.runTimeoutMs,
    () => new Error("the rerun's time limit (--timeout) ran out"),
  );
  const http = createHttpClient({
    timeoutMs: options.requestTimeoutMs,
    signal: deadline.signal,
    userAgent: `assopay-contract/${packageVersion()} (verify --cassette)`,
  });
  try {
    const tokens = createTokenSource(http, options.target, {
      kind: "token-endpoint",
      reader: options.reader,
      admin: options.admin,
    });
    // The given clients' tokens, fetched once: refused credentials or a silent target end the run (exit 2).
    await tokens.token("reader");
    if (tokens.has("admin")) await tokens.token("admin");
    const values = createLearntValues((index) => steps[index]?.id ?? `step ${index + 1}`);
    const listings = createListings();
    const session: Session = { options, contract, http, steps, values, listings, tokens };
    const started = Date.now();
    const findings: Finding[] = [];
    for (const step of steps) {
      const finding = deadline.signal.aborted
        ? unjudgedFinding(step, "error", "not run: the rerun's time limit (--timeout) ran out first")
        : await rerunStep(session, step);
      findings.push(finding);
      io.onOutcome?.(finding);
    }
    for (const finding of deadline.signal.aborted ? [] : await judgeRerunCrawls(session)) {
      findings.push(finding);
      io.onOutcome?.(finding);
    }
    return runReport(options, started, findings);
  } finally {
    http.close();
    deadline.done();
  }
}
