/** One section of docs/benchmarks.md: a heading, a table, the target verdicts and notes. */
export interface Section {
  title: string;
  command: string;
  table: { header: string[]; rows: string[][] };
  targets: { target: string; measured: string; met: boolean | "n/a" }[];
  notes: string[];
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
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
  if (section.targets.length > 0) {
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
  if (section.notes.length > 0) parts.push("", ...section.notes.map((n) => `- ${n}`));
  return parts.join("\n");
}

/** A plain-text table for the terminal. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
