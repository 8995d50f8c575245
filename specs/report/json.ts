import type { RunReport } from "../runner/types.js";

/** The report as JSON (stable field names; one object with `outcomes` and `summary`). */
export function formatJson(report: RunReport): string {
  return `${JSON.stringify({ tool: "assopay verify", ...report }, null, 2)}\n`;
}
