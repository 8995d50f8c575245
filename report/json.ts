import { type Report, summarize } from "./model.js";

/** The `format` of every JSON report; see `report/report.schema.json` and docs/report.md. */
export const REPORT_FORMAT = "assopay-report";

/** Bumped on any change that could break a reader of the JSON report. */
export const REPORT_SCHEMA_VERSION = 4;

/**
 * The JSON report (`report/report.schema.json`): `format`, `schemaVersion`, `tool`, `name`, `passed`,
 * `summary`, `suites` and, for a run across dates, `matrix` (the shared model), followed by the verb's own fields (`details`: verify's
 * `outcomes`, gate's `scenarios`, notify's `cases` …), which cannot replace the shared ones.
 */
export function writeJson(report: Report, details: Readonly<Record<string, unknown>> = {}): string {
  const document = {
    format: REPORT_FORMAT,
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...details,
    tool: report.tool,
    name: report.name,
    passed: report.passed,
    summary: summarize(report.suites),
    durationMs: report.durationMs,
    // A suite's traffic is drawn by the HTML report only; the verbs' own fields keep what they keep.
    suites: report.suites.map(({ traffic: _traffic, ...suite }) => suite),
    ...(report.matrix ? { matrix: report.matrix } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
