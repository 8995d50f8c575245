import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One command line of a ```sh block of the docs, as a reader would paste it. */
export interface DocLine {
  /** `docs/drift.md:10`. */
  where: string;
  /** The line as written, continuations joined, the trailing comment removed. */
  text: string;
  /** The words, quotes removed, split at `&&` into the commands run one after the other. */
  commands: string[][];
  /** Ends with `&`: started in the background for the lines after it. */
  background: boolean;
  /** `> FILE`: where the reader sends standard output. */
  redirect?: string;
}

/** Splits a shell line into words (single and double quotes, `\` escapes); stops at a `#` word. */
export function words(line: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) current = `${current ?? ""}${line[++i]}`;
      else current = `${current ?? ""}${c}`;
    } else if (c === "'" || c === '"') {
      quote = c;
      current ??= "";
    } else if (c === " " || c === "\t") {
      if (current !== undefined) out.push(current);
      current = undefined;
    } else if (c === "#" && current === undefined) {
      break;
    } else if (c === "\\" && i + 1 < line.length) {
      current = `${current ?? ""}${line[++i]}`;
    } else {
      current = `${current ?? ""}${c}`;
    }
  }
  if (current !== undefined) out.push(current);
  return out;
}

/** The command lines of every ```sh block of a Markdown file, with their line numbers. */
export function docLines(root: string, file: string): DocLine[] {
  const source = readFileSync(join(root, file), "utf8").split("\n");
  const lines: DocLine[] = [];
  let inBlock = false;
  for (let i = 0; i < source.length; i++) {
    const raw = source[i] ?? "";
    if (raw.startsWith("```")) {
      inBlock = !inBlock && raw.trim() === "```sh";
      continue;
    }
    if (!inBlock) continue;
    const start = i;
    let joined = raw;
    while (joined.endsWith("\\") && i + 1 < source.length) joined = `${joined.slice(0, -1)} ${source[++i]}`;
    const all = words(joined.trim());
    if (all.length === 0) continue;
    const background = all.at(-1) === "&";
    if (background) all.pop();
    const at = all.indexOf(">");
    const redirect = at >= 0 ? all[at + 1] : undefined;
    const kept = at >= 0 ? all.slice(0, at) : all;
    const commands: string[][] = [[]];
    for (const word of kept) {
      if (word === "&&") commands.push([]);
      else commands.at(-1)?.push(word);
    }
    lines.push({
      where: `${file}:${start + 1}`,
      text: kept.join(" "),
      commands,
      background,
      ...(redirect === undefined ? {} : { redirect }),
    });
  }
  return lines;
}
