import { failingDates } from "./matrix.js";
import type { MatrixCell, ReportMatrix } from "./model.js";

/** One mark per cell: the matrix reads without colour, one character a date. */
const MARK: Readonly<Record<MatrixCell, string>> = {
  pass: "✔",
  fail: "✘",
  warn: "!",
  skip: "-",
  error: "E",
  "not-in-force": "○",
};

const BASIS = {
  "behaviour-at-each-date": "each date judged on the provider's behaviour at that date",
  "one-behaviour-each-date-rules": "one behaviour judged by each date's rules",
} as const;

/**
 * The matrix for the terminal: the dates numbered above (with what each is), then one line per row with
 * a mark per date, then the legend and the failing dates.
 */
export function prettyMatrix(matrix: ReportMatrix): string[] {
  const width = Math.max(20, ...matrix.rows.map((r) => r.id.length));
  const failing = failingDates(matrix);
  return [
    `Across ${matrix.dates.length} dates (${BASIS[matrix.basis]}): ${matrix.note}`,
    ...matrix.dates.map((d, i) => `  ${String(i + 1).padStart(2)}. ${d.day}  ${d.label}`),
    "",
    `  ${"".padEnd(width)}  ${matrix.dates.map((_, i) => String(i + 1).padStart(2)).join(" ")}`,
    ...matrix.rows.map(
      (row) => `  ${row.id.padEnd(width)}  ${row.cells.map((c) => MARK[c.cell].padStart(2)).join(" ")}`,
    ),
    "",
    "  ✔ pass  ✘ fail  ! warn  - skip  E error  ○ not yet in force",
    failing.length === 0 ? "  No date fails." : `  Failing at: ${failing.join(", ")}`,
  ];
}
