import { failingDates } from "../matrix.js";
import type { MatrixCell, ReportMatrix } from "../model.js";
import { escapeHtml as h, ruleLink } from "./escape.js";

/** Each cell as a mark and a word, so the matrix reads without colour (and in print, and aloud). */
export const CELL_TEXT: Readonly<Record<MatrixCell, string>> = {
  pass: "✔ pass",
  fail: "✘ fail",
  warn: "! warn",
  skip: "– skip",
  error: "✘ error",
  "not-in-force": "○ not yet in force",
};

const BASIS_TEXT = {
  "behaviour-at-each-date": "each date judged on the provider's behaviour at that date",
  "one-behaviour-each-date-rules": "one behaviour (today's, or the recording's) judged by each date's rules",
} as const;

/**
 * The matrix as a table: a caption saying how the dates were judged, one column per date (its label under
 * it; a date where something fails is marked in its header), one row per check or rule, each row header
 * linking to the rule, each cell its verdict in words with the reason as its title.
 */
export function matrixTable(matrix: ReportMatrix, known: ReadonlySet<string>): string {
  const failing = new Set(failingDates(matrix));
  const head = matrix.dates
    .map((d) => {
      const fails = failing.has(d.day);
      return `<th scope="col"${fails ? ' class="failing" data-failing="true"' : ""} data-day="${h(d.day)}">${h(d.day)}${fails ? " ✘" : ""}<small>${h(d.label)}</small></th>`;
    })
    .join("");
  const rows = matrix.rows.map((row) => {
    const name = ruleLink(row.rule, h(row.id), known);
    const cells = row.cells
      .map(
        (c, i) =>
          `<td class="c-${c.cell}" data-cell="${c.cell}" data-day="${h(matrix.dates[i]?.day ?? "")}" title="${h(c.reason)}">${CELL_TEXT[c.cell]}</td>`,
      )
      .join("");
    return `<tr data-row="${h(row.id)}"><th scope="row">${name}</th>${cells}</tr>`;
  });
  return [
    `<table class="matrix" id="matrix">`,
    `<caption>Rules × dates: ${h(BASIS_TEXT[matrix.basis])}. ${h(matrix.note)}</caption>`,
    `<thead><tr><th scope="col">check or rule</th>${head}</tr></thead>`,
    `<tbody>${rows.join("\n")}</tbody>`,
    "</table>",
  ].join("\n");
}
