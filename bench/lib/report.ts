/**
 * One section of docs/benchmarks.md: a heading, the command that measured it (`npm run bench -- --only
 * SUITE`, written by main.ts for the suite that returned it), a table, the target verdicts and notes.
 */
export interface Section {
  title: string;
  command?: string;
  table: { header: string[]; rows: string[][] };
  targets?: { target: string; measured: string; met: boolean | "n/a" }[];
  notes?: string[];
}

function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export function renderSection(section: Section): string {
  const parts = [
    `## ${section.title}`,
    "",
    `Command: \`${section.command}\``,
    "",
    markdownTable(section.table.header, section.table.rows),
  ];
  if (section.targets?.length) {
    parts.push(
      "",
      markdownTable(
        ["target", "measured", "met"],
        section.targets.map((t) => [
          t.target,
          t.measured,
          t.met === "n/a" ? "n/a" : t.met ? "yes" : "**no**",
        ]),
      ),
    );
  }
  if (section.notes?.length) parts.push("", ...section.notes.map((n) => `- ${n}`));
  return parts.join("\n");
}

/** A plain-text table for the terminal. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `0.87` → `87%`. */
export function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : "n/a";
}

/** `1234.5` → `1,235`. */
export function whole(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a";
}

/** CPU time per request (µs) for a table cell: `23.4`, or `n/a` where it was not measured. */
export function cpuPerRequest(microseconds: number): string {
  return Number.isFinite(microseconds) ? microseconds.toFixed(1) : "n/a";
}

/**
 * A partial run (`--only`) rewrites docs/benchmarks.md without throwing away the suites it did not run:
 * their sections are kept from the file as it was, each saying which run measured it.
 */

const RUN_LINE = /^- Run: (\S+),/m;
const MEASURED_LINE = /^Measured in the run of \S+\.$/m;
const SUITE_COMMAND = /^Command: `npm run bench -- --only ([\w-]+)`/m;

/** The suite a rendered section's command names, if any. */
function suiteOf(section: string): string | undefined {
  return SUITE_COMMAND.exec(section)?.[1];
}

/** The rendered sections of a file, each from its `## ` heading to the next. */
function sectionsOf(markdown: string): string[] {
  const starts = [...markdown.matchAll(/^## .+$/gm)];
  return starts.map((start, i) =>
    markdown.slice(start.index, starts[i + 1]?.index ?? markdown.length).trimEnd(),
  );
}

/**
 * `section` (rendered) with the line naming the run that measured it under its command; a section that
 * has one already is returned as it is. `run` is an ISO time, or words for an unknown one.
 */
export function withMeasuredLine(section: string, run: string): string {
  if (MEASURED_LINE.test(section)) return section;
  return section.replace(/^(Command: .*)$/m, `$1\n\nMeasured in the run of ${run}.`);
}

/**
 * The sections of `previous` (the file's text before this run) that belong to suites not in `ran`, each
 * with the line naming the run that measured it (taken from the file's header when it had none), and
 * those of scripts of their own (no suite), as they were.
 */
export function keptSections(previous: string, ran: readonly string[]): string[] {
  const run = RUN_LINE.exec(previous)?.[1] ?? "an earlier date";
  return (
    sectionsOf(previous)
      .filter((section) => {
        const suite = suiteOf(section);
        return suite === undefined || !ran.includes(suite);
      })
      // A section of no suite (written by hand) is kept as it was written.
      .map((section) => (suiteOf(section) === undefined ? section : withMeasuredLine(section, run)))
  );
}

/** `sections` (rendered) in the order of `suites`, by the suite each one's command names; stable. */
export function inSuiteOrder(sections: readonly string[], suites: readonly string[]): string[] {
  const rank = (text: string) => {
    const suite = suiteOf(text);
    const i = suite === undefined ? -1 : suites.indexOf(suite);
    return i < 0 ? suites.length : i;
  };
  return sections
    .map((text, i) => ({ text, i, rank: rank(text) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((s) => s.text);
}
