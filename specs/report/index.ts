import type { RunReport } from "../runner/types.js";
import { formatJson } from "./json.js";
import { formatJunit } from "./junit.js";
import { formatPretty } from "./pretty.js";

export type ReporterName = "pretty" | "json" | "junit";
export const REPORTERS: readonly ReporterName[] = Object.freeze(["pretty", "json", "junit"]);

/** The whole report in a format. */
export function formatReport(report: RunReport, reporter: ReporterName, color = false): string {
  switch (reporter) {
    case "pretty":
      return formatPretty(report, { color });
    case "json":
      return formatJson(report);
    case "junit":
      return formatJunit(report);
  }
}
