import type {
  Finding,
  MatrixBasis,
  MatrixCell,
  MatrixDate,
  MatrixRow,
  Report,
  ReportMatrix,
  ReportSuite,
  Verdict,
} from "./model.js";

/** One date of a timeline run and its report. */
export interface DatedReport {
  readonly date: MatrixDate;
  readonly report: Report;
}

/** When a rule comes into force: the day and the timeline entry that brings it (none: always in force). */
export type RuleStart = (rule: string) => { readonly day: string; readonly entry: string } | undefined;

/** How the cases of each date become rows and cells. */
export interface MatrixInput {
  readonly runs: readonly DatedReport[];
  readonly basis: MatrixBasis;
  readonly note: string;
  /** The row a case belongs to (verify: the check id; gate and lint: the rule). */
  readonly rowOf: (item: Finding) => string;
  /** The cell of a row no case of a date reached (verify: not run; lint: nothing broke it). */
  readonly absent: { readonly cell: MatrixCell; readonly reason: string };
  readonly startOf?: RuleStart;
}

/** Which verdict wins when several cases of one date fall in one row: the worst. */
const WEIGHT: Readonly<Record<Verdict, number>> = { error: 4, fail: 3, warn: 2, pass: 1, skip: 0 };

function worst(cases: readonly Finding[]): Finding | undefined {
  return cases.reduce<Finding | undefined>(
    (chosen, item) => (chosen === undefined || WEIGHT[item.verdict] > WEIGHT[chosen.verdict] ? item : chosen),
    undefined,
  );
}

/**
 * The matrix of a timeline run: one row per check or rule (in the order first seen), one cell per date,
 * the worst verdict of the date's cases in that row. A rule not yet in force that day (`startOf`) shows
 * `not-in-force` where its cases passed or skipped; a failure stays a failure whatever the date.
 */
export function timelineMatrix(input: MatrixInput): ReportMatrix {
  const ids: string[] = [];
  const ruleOf = new Map<string, string>();
  for (const { report } of input.runs) {
    for (const suite of report.suites) {
      for (const item of suite.cases) {
        const id = input.rowOf(item);
        if (!ruleOf.has(id)) {
          ids.push(id);
          ruleOf.set(id, item.rule);
        }
      }
    }
  }
  const rows: MatrixRow[] = ids.map((id) => {
    const rule = ruleOf.get(id) ?? id;
    const start = input.startOf?.(rule);
    return {
      id,
      rule,
      cells: input.runs.map(({ date, report }) => {
        const found = worst(report.suites.flatMap((s) => s.cases.filter((c) => input.rowOf(c) === id)));
        const cell = found ? { cell: found.verdict as MatrixCell, reason: found.reason } : input.absent;
        if (start && date.day < start.day && (cell.cell === "pass" || cell.cell === "skip")) {
          return { cell: "not-in-force", reason: `not yet in force: ${start.entry} from ${start.day}` };
        }
        return cell;
      }),
    };
  });
  return { basis: input.basis, note: input.note, dates: input.runs.map((r) => r.date), rows };
}

/** Each date's suites, their names and properties saying the date (JUnit keeps one suite per date). */
export function datedSuites(runs: readonly DatedReport[]): ReportSuite[] {
  return runs.flatMap(({ date, report }) =>
    report.suites.map((suite) => ({
      ...suite,
      name: `${date.day} ${suite.name}`,
      properties: { ...suite.properties, at: date.day },
    })),
  );
}

/** The dates of a matrix where some row fails or errs. */
export function failingDates(matrix: ReportMatrix): string[] {
  return matrix.dates
    .filter((_, i) => matrix.rows.some((row) => ["fail", "error"].includes(row.cells[i]?.cell ?? "")))
    .map((d) => d.day);
}
