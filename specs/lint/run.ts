import type { Contract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import type { Finding, Report, ReportSuite } from "../../report/index.js";
import { loadSteps } from "../rerun/steps.js";
import { type LintedInteraction, lintSteps } from "./judge.js";

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
