import { redactSecretData } from "../core/secrets/text.js";
import { writeCompact } from "./compact.js";
import { writeHtml } from "./html.js";
import { writeJson } from "./json.js";
import { writeJunit } from "./junit.js";
import type { Report } from "./model.js";
import { type PrettyOptions, writePretty } from "./pretty.js";
import type { ReporterName } from "./reporter.js";

export * from "./compact.js";
export * from "./html.js";
export * from "./json.js";
export * from "./junit.js";
export * from "./matrix.js";
export * from "./model.js";
export * from "./pretty.js";
export * from "./reporter.js";

/**
 * A report written the chosen way. `details` are the verb's own fields for the JSON report. Both go
 * through the one redactor of what the tool writes (`core/secrets`): URL passwords, secret-named query,
 * form and JSON values, credential headers and secrets of a known shape become placeholders, in every
 * writer.
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
  const shown = redactSecretData(report);
  switch (reporter) {
    case "pretty":
      return writePretty(shown, options);
    case "compact":
      return writeCompact(shown, options);
    case "json":
      return writeJson(shown, redactSecretData(details));
    case "junit":
      return writeJunit(shown);
    case "html":
      return writeHtml(shown, redactSecretData(details));
  }
}
