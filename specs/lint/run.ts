import type { Contract } from "../../contracts/index.js";
import { type IsoDay, isIsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { bodyBytes } from "../../proxy/cassette/body.js";
import { queryParams } from "../../proxy/http/message.js";
import type { Finding, Report, ReportSuite } from "../../report/index.js";
import { type Exchange, emptyJudgement } from "../rerun/finding.js";
import { createListings } from "../rerun/listings.js";
import { judgeListingPage } from "../rerun/page.js";
import { judgeResource } from "../rerun/resource.js";
import { judgeStatus } from "../rerun/status.js";
import { loadSteps, type RerunStep, recordedJson } from "../rerun/steps.js";
import type { HttpExchange } from "../runner/http.js";

/** One recorded interaction as lint judged it: its day, and its breaches as findings (the one result type). */
export interface LintedInteraction {
  step: RerunStep;
  /** The day whose rules judged it. */
  date: IsoDay;
  /** Where that day came from. */
  dateFrom: "--at" | "response date header" | "recordedAt";
  /** The rules it breaks, each a failing finding naming the file, line and interaction. */
  breaches: readonly Finding[];
}

/** The day of an interaction: `at` when given, else its response's `date` header, else `recordedAt`. */
export function interactionDay(
  step: RerunStep,
  at: IsoDay | undefined,
): Pick<LintedInteraction, "date" | "dateFrom"> {
  if (at) return { date: at, dateFrom: "--at" };
  const header = Object.entries(step.interaction.response.headers).find(
    ([name]) => name.toLowerCase() === "date",
  )?.[1];
  const fromHeader = typeof header === "string" ? new Date(header) : undefined;
  if (fromHeader && !Number.isNaN(fromHeader.getTime())) {
    return { date: fromHeader.toISOString().slice(0, 10) as IsoDay, dateFrom: "response date header" };
  }
  const day = step.interaction.recordedAt.slice(0, 10);
  if (!isIsoDay(day)) {
    throw new AssopayError("bad-cassette", `interaction ${step.interaction.id} has no date to judge it by`, {
      location: step.interaction.source,
      hint: "give it a recordedAt (ISO 8601) or a response date header, or pass --at YYYY-MM-DD",
    });
  }
  return { date: day, dateFrom: "recordedAt" };
}

/** The recorded response as the HTTP exchange the rerun's judges read. */
function recordedExchange(step: RerunStep): HttpExchange {
  const { request, response } = step.interaction;
  const stored = response.body;
  // A binary body has no text to quote.
  const text = stored && !("base64" in stored) ? bodyBytes(stored).toString("utf8") : "";
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return {
    request: { method: request.method, url: request.path },
    status: response.status,
    headers,
    bytes: Buffer.from(text),
    text,
    // Recorded exchanges come in the recording's order.
    sentAt: 2 * step.index,
    answeredAt: 2 * step.index + 1,
  };
}

/**
 * Judges every recorded interaction in order (the pages of one crawl together) by the contract as of its
 * day, with the rerun's own judges: its `Deprecation` and `Sunset` headers, the status (v3 after its
 * switch-off), listing pages (result array, schema, counts at that date, sizes, duplicates across the
 * pages of a crawl) and other answers (their schema, owned by the rule that owns each sentence). The
 * recorded answer stands for both the recording and the target.
 */
export function lintSteps(
  steps: readonly RerunStep[],
  contract: Contract,
  at: IsoDay | undefined,
): LintedInteraction[] {
  const listings = createListings();
  return steps.map((step) => {
    const day = interactionDay(step, at);
    const route = step.match?.route;
    const target = recordedExchange(step);
    const body = recordedJson(step);
    const exchange: Exchange = {
      step,
      route,
      rules: route ? contract.timeline.datedRulesAt(route, day.date) : undefined,
      recorded: { status: target.status, body },
      target,
      targetBody: body,
      query: queryParams(step.interaction.request.query),
      sameResource: true,
    };
    const judgement = emptyJudgement(step, "fail", contract.timeline);
    const served = judgeStatus(exchange, judgement, contract.timeline.entries);
    if (served && route?.pagination) judgeListingPage(exchange, judgement, listings.crawlFor(step), contract);
    else if (served) judgeResource(exchange, judgement, contract);
    const { source, id, request } = step.interaction;
    const place = `${source.file}:${source.line} (interaction ${id})`;
    const when = `judged by the rules of ${day.date} (${day.dateFrom})`;
    const breaches = judgement.breaches.map(({ rule, reason, evidence }) => ({
      id: `${source.file}#${id} ${request.method} ${request.path}`,
      title: rule,
      rule,
      group: source.file,
      verdict: "fail" as const,
      reason: `${place}: ${reason}; ${when}`,
      ...(evidence ? { evidence } : {}),
    }));
    return { step, ...day, breaches };
  });
}

/** What `assopay lint` judged and found. */
export interface LintResult {
  cassettes: readonly string[];
  /** The day given with `--at`, when one was. */
  at: IsoDay | undefined;
  interactions: readonly LintedInteraction[];
  /** What loading left out (notification documents, documents cut short). */
  notes: readonly string[];
}

/**
 * Lints recorded cassettes: every client interaction judged by the contract's schemas and its rules as
 * of the interaction's day (`at` when given). A file that is not a cassette is an `AssopayError` with its
 * file and line (exit 2).
 *
 * @example
 * const result = await runLint(loadContract(), ["recordings/pagination-crawl.yaml"], "2025-04-01" as IsoDay);
 */
export async function runLint(
  contract: Contract,
  cassettes: readonly string[],
  at: IsoDay | undefined,
): Promise<LintResult> {
  const { steps, notes } = await loadSteps(cassettes, contract);
  return { cassettes, at, interactions: lintSteps(steps, contract, at), notes };
}

/** The report's cases of one interaction: its breaches, else one pass naming the day that judged it. */
function casesOf(interaction: LintedInteraction): readonly Finding[] {
  const { step, date, dateFrom } = interaction;
  if (interaction.breaches.length > 0) return interaction.breaches;
  const { method, path } = step.interaction.request;
  const when = `judged by the rules of ${date} (${dateFrom})`;
  return [
    {
      id: `${step.interaction.source.file}#${step.interaction.id} ${method} ${path}`,
      rule: step.match?.route.id ?? "unknown-route",
      group: step.interaction.source.file,
      verdict: "pass",
      reason: step.match ? `${step.match.route.id}: ${when}` : `no route of the contract: not judged`,
    },
  ];
}

/**
 * The lint result as the shared report model: one suite per cassette, one case per interaction (one per
 * broken rule when it breaks several), each failure naming the file, line and interaction id.
 */
export function lintReport(result: LintResult): Report {
  const suites: ReportSuite[] = [
    ...new Set(result.interactions.map((o) => o.step.interaction.source.file)),
  ].map((file) => ({
    name: file,
    properties: { at: result.at ?? "each interaction's own date" },
    cases: result.interactions.filter((o) => o.step.interaction.source.file === file).flatMap(casesOf),
    notes: result.notes.filter((n) => n.startsWith(file)),
  }));
  const broken = result.interactions.filter((o) => o.breaches.length > 0).length;
  return {
    tool: "assopay lint",
    name: `assopay lint: ${result.cassettes.join(" ")}`,
    header: `assopay lint: ${result.interactions.length} recorded interaction(s) judged by the contract`,
    result:
      broken === 0
        ? "Every recorded answer holds to the contract."
        : `${broken} recorded interaction(s) break a rule of the contract.`,
    passed: broken === 0,
    suites,
  };
}
