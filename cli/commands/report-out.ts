import { type Report, type ReporterName, useColor, writeReport } from "../../report/index.js";
import type { CommandContext } from "../command.js";

/**
 * Writes a verb's report to stdout as `reporter` says, in color where stdout wants it (`useColor`), with
 * `details` in the JSON; returns the exit code: 0 when the report passed, else 1.
 */
export function printReport(
  context: Pick<CommandContext, "stdout" | "env">,
  report: Report,
  reporter: ReporterName,
  details: Readonly<Record<string, unknown>>,
): number {
  const color = useColor(context.stdout as { isTTY?: boolean }, context.env);
  context.stdout.write(writeReport(report, reporter, { color }, details));
  return report.passed ? 0 : 1;
}
