import type { Report } from "./model.js";
import { type PrettyOptions, prettyFailures, prettySummary } from "./pretty.js";

/** The report for a CI log (`--reporter compact`): the failures explained and the counts, nothing else. */
export function writeCompact(report: Report, options: PrettyOptions): string {
  const failures = prettyFailures(report, options).slice(1);
  return [...failures, ...(failures.length > 0 ? [""] : []), prettySummary(report), ""].join("\n");
}
