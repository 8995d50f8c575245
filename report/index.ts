import { writeJson } from "./json.js";
import { writeJunit } from "./junit.js";
import type { Report } from "./model.js";
import { type PrettyOptions, writePretty } from "./pretty.js";
import type { ReporterName } from "./reporter.js";

export * from "./json.js";
export * from "./junit.js";
export * from "./model.js";
export * from "./pretty.js";
export * from "./reporter.js";
export { xmlEscape } from "./xml.js";

/**
 * A report written the chosen way. `details` are the verb's own fields for the JSON report.
 *
 * @example
 * writeReport(report, "junit", { color: false });
 */
export function writeReport(
  report: Report,
  reporter: ReporterName,
  options: PrettyOptions,
  details: Readonly<Record<string, unknown>> = {},
): string {
  switch (reporter) {
    case "pretty":
      return writePretty(report, options);
    case "json":
      return writeJson(report, details);
    case "junit":
      return writeJunit(report);
  }
}
