/**
 * Redaction of delimited tables (`text/csv`, `text/tab-separated-values`): the service's listings and
 * exports answer CSV when asked by `Accept`. A column whose header is a secret's name (`password`,
 * `api_key`) has every cell replaced, a personal one faked with `--redact-pii`; every other cell, and
 * every byte between, stays as it came, then the whole text is scrubbed.
 */
import { asFieldName } from "./named-pairs.js";
import { fieldValue, isSensitiveField, type Redactor, scrubText } from "./redactor.js";
import { type Span, spliceSpans } from "./spans.js";

/** Whether a body's type is a delimited table. */
export function isTableType(contentType: string | undefined): boolean {
  return (
    contentType !== undefined && /^\s*(?:text|application)\/(?:csv|tab-separated-values)\b/i.test(contentType)
  );
}

/** Whether a character ends a line. */
const endsLine = (c: string) => c === "\n" || c === "\r";

/** One cell: where its value sits in the text (inside its quotes, if quoted). */
interface Cell {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
}

/** The separator of a table: the first of `;`, tab and `,` found outside quotes in its first line. */
function separatorOf(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === ";" || c === "\t" || c === ",")) return c;
    else if (!quoted && (c === "\n" || c === "\r")) break;
  }
  return ",";
}

/** The rows of a table, each a list of cells (RFC 4180: quotes doubled inside quoted cells). */
function rowsOf(text: string, separator: string): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let i = 0;
  while (i <= text.length) {
    const quoted = text.charAt(i) === '"';
    let end = quoted ? i + 1 : i;
    if (quoted) {
      while (end < text.length && !(text.charAt(end) === '"' && text.charAt(end + 1) !== '"')) {
        end += text.charAt(end) === '"' ? 2 : 1;
      }
    } else {
      while (end < text.length && !endsLine(text.charAt(end)) && text.charAt(end) !== separator) end++;
    }
    row.push({ start: quoted ? i + 1 : i, end, quoted });
    let next = quoted ? end + 1 : end;
    while (quoted && next < text.length && !endsLine(text.charAt(next)) && text.charAt(next) !== separator)
      next++;
    if (text.charAt(next) === separator) {
      i = next + 1;
      continue;
    }
    rows.push(row);
    row = [];
    if (text.charAt(next) === "\r" && text.charAt(next + 1) === "\n") next++;
    i = next + 1;
  }
  return rows;
}

/** A cell's value, its doubled quotes undone. */
const cellText = (text: string, cell: Cell) => {
  const raw = text.slice(cell.start, cell.end);
  return cell.quoted ? raw.replaceAll('""', '"') : raw;
};

/** The columns of a table headed by a name `r` redacts: their index and that name. */
function secretColumns(text: string, rows: readonly Cell[][], r: Redactor) {
  // A header is a label: "API Key" is named as `API_Key` would be.
  return (rows[0] ?? [])
    .map((cell, index) => ({ index, name: asFieldName(cellText(text, cell)) }))
    .filter(({ name }) => name !== "" && isSensitiveField(name, r));
}

/** Whether a table's header `line` (its first) names a column `r` redacts: a table too large to read whole. */
export function tableNamesSecret(line: string, r: Redactor): boolean {
  return secretColumns(line, rowsOf(line, separatorOf(line)), r).length > 0;
}

/**
 * A table's text as it may be written (see the module).
 *
 * @example redactTableText("email,password\na@b.c,hunter2\n", r) // "email,password\na@b.c,<secret:…>\n"
 */
export function redactTableText(text: string, r: Redactor): string {
  const rows = rowsOf(text, separatorOf(text));
  const columns = secretColumns(text, rows, r);
  if (columns.length === 0) return scrubText(text, r);
  const spans: Span[] = [];
  for (const row of rows.slice(1)) {
    for (const { index, name } of columns) {
      const cell = row[index];
      if (!cell || cell.end <= cell.start) continue;
      const value = fieldValue(name, cellText(text, cell), r);
      spans.push({
        start: cell.start,
        end: cell.end,
        value: cell.quoted ? value.replaceAll('"', '""') : value,
      });
    }
  }
  return scrubText(spliceSpans(text, spans), r);
}
