/**
 * A partial run (`--only`) rewrites docs/benchmarks.md without throwing away the suites it did not run:
 * their sections are kept from the file as it was, each saying which run measured it.
 */

/** A section of the file as written: its title, the suite its command names, and its text. */
interface WrittenSection {
  title: string;
  suite: string | undefined;
  text: string;
}

const RUN_LINE = /^- Run: (\S+),/m;
const MEASURED_LINE = /^Measured in the run of \S+\.$/m;

function sectionsOf(markdown: string): WrittenSection[] {
  const starts = [...markdown.matchAll(/^## (.+)$/gm)];
  return starts.map((start, i) => {
    const text = markdown.slice(start.index, starts[i + 1]?.index ?? markdown.length).trimEnd();
    const suite = /^Command: `npm run bench -- --only ([\w-]+)`/m.exec(text)?.[1];
    return { title: start[1] ?? "", suite, text };
  });
}

/** The line a fresh section carries under its command: which run measured it. */
export function measuredLine(started: Date): string {
  return `Measured in the run of ${started.toISOString()}.`;
}

/**
 * The sections of `previous` (the file's text before this run) that belong to suites not in `ran`,
 * each with the line naming the run that measured it (taken from the file's header when it had none).
 */
export function keptSections(previous: string, ran: readonly string[]): string[] {
  const run = RUN_LINE.exec(previous)?.[1] ?? "an earlier date";
  return sectionsOf(previous)
    .filter((s) => s.suite !== undefined && !ran.includes(s.suite))
    .map((s) => {
      if (MEASURED_LINE.test(s.text)) return s.text;
      return s.text.replace(/^(Command: .*)$/m, `$1\n\nMeasured in the run of ${run}.`);
    });
}

/** `sections` (rendered) in the order of `suites`, by the suite each one's command names; stable. */
export function inSuiteOrder(sections: readonly string[], suites: readonly string[]): string[] {
  const rank = (text: string) => {
    const suite = /^Command: `npm run bench -- --only ([\w-]+)`/m.exec(text)?.[1];
    const i = suite === undefined ? -1 : suites.indexOf(suite);
    return i < 0 ? suites.length : i;
  };
  return sections
    .map((text, i) => ({ text, i, rank: rank(text) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((s) => s.text);
}
