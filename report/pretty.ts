import { redactSecretData } from "../core/secrets/text.js";
import { explanationParts } from "./evidence.js";
import { casesOf, type Finding, type Report, summarize, type Verdict, type VerdictCounts } from "./model.js";
import { prettyMatrix } from "./pretty-matrix.js";

/** How the pretty report is written. */
export interface PrettyOptions {
  /**
   * Colour the verdicts with ANSI codes (decide with `useColor`).
   * @example { color: useColor(process.stdout, process.env) }
   */
  readonly color: boolean;
}

/** Each verdict's mark and its ANSI colour. */
const MARK: Readonly<Record<Verdict, readonly [mark: string, color: string]>> = {
  pass: ["✔ pass", "\x1b[32m"],
  fail: ["✘ FAIL", "\x1b[31m"],
  skip: ["- skip", "\x1b[90m"],
  warn: ["! warn", "\x1b[33m"],
  error: ["✘ ERROR", "\x1b[31m"],
};

const paint = (text: string, verdict: Verdict, options: PrettyOptions) =>
  options.color ? `${MARK[verdict][1]}${text}\x1b[0m` : text;

/**
 * Whether to colour a stream: never with `NO_COLOR` set (https://no-color.org), always with
 * `FORCE_COLOR` set to anything but `0`, otherwise only on a terminal.
 *
 * @example
 * useColor(process.stdout, process.env); // true in a terminal without NO_COLOR
 */
export function useColor(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/**
 * The lines below are written as a run goes (verify's live report), not only through `writeReport`:
 * each redacts what it is given through the one redactor (`core/secrets`).
 */

/** One line per case: verdict, id, and the reason cut to a line. */
export function prettyCaseLine(given: Finding, options: PrettyOptions, indent = ""): string {
  const item = redactSecretData(given);
  const reason = item.reason.replace(/\s+/g, " ");
  const short = reason.length > 150 ? `${reason.slice(0, 149)}…` : reason;
  return `${indent}${paint(MARK[item.verdict][0].padEnd(7), item.verdict, options)} ${item.id.padEnd(42)} ${short}`.trimEnd();
}

/** The labels the pretty report aligns; the others are followed by their text. */
const ALIGNED = new Set(["rule", "why", "request", "response"]);

const explain = (item: Finding) =>
  explanationParts(item).map(([label, text]) =>
    label === ""
      ? `              ${text}`
      : label === "-"
        ? `      - ${text}`
        : `    ${ALIGNED.has(label) ? `${label}:`.padEnd(10) : `${label}: `}${text}`,
  );

/** For each failure and error: the rule, why, the request, the offending part, the fix. */
export function prettyFailures(given: Report, options: PrettyOptions): string[] {
  const report = redactSecretData(given);
  const failed = casesOf(report).filter(({ item }) => item.verdict === "fail" || item.verdict === "error");
  if (failed.length === 0) return [];
  const lines = ["", "Failures:"];
  failed.forEach(({ suite, item }, index) => {
    const where = suite.heading === undefined ? "" : `${suite.name} › `;
    const title = item.title === undefined ? "" : `: ${item.title}`;
    lines.push(
      "",
      paint(`${index + 1}) ${where}${item.id}${title}`, item.verdict, options),
      ...explain(item),
    );
  });
  return lines;
}

/** The counts of each verdict (`errored` only when some did), as the summary and a run's progress say them. */
export const prettyCounts = (s: VerdictCounts): string =>
  `${s.pass} passed, ${s.fail} failed, ${s.warn} warned, ${s.skip} skipped${s.error > 0 ? `, ${s.error} errored` : ""}`;

/** The counts of each verdict, then the report's result sentence. */
export function prettySummary(report: Report): string {
  return `${prettyCounts(summarize(report.suites))} — ${redactSecretData(report.result)}`;
}

/**
 * The whole report for people: the header, the failures explained (first: a CI log is read from the
 * top), each suite's cases (a run across dates: its matrix), notes, counts.
 */
export function writePretty(report: Report, options: PrettyOptions): string {
  const lines = [report.header, ...prettyFailures(report, options), ""];
  // A run across dates shows its matrix instead of every date's case lines.
  if (report.matrix) lines.push(...prettyMatrix(report.matrix));
  for (const suite of report.matrix ? [] : report.suites) {
    if (suite.heading === undefined) {
      lines.push(...suite.cases.map((item) => prettyCaseLine(item, options)));
      continue;
    }
    if (lines.at(-1) !== "") lines.push("");
    lines.push(...suite.heading, ...suite.cases.map((item) => prettyCaseLine(item, options, "  ")));
  }
  const notes = report.suites.flatMap((suite) => suite.notes);
  if (notes.length > 0) lines.push("", "Notes:", ...notes.map((note) => `  ${note}`));
  lines.push("", prettySummary(report), "");
  return lines.join("\n");
}
