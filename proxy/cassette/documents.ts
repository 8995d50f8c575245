/**
 * Cutting a cassette's YAML stream into documents on its `---` and `...` lines, one line at a time, so a
 * file of any size can be read as a stream (a whole file above ~512 MB does not fit in one string).
 */

/** A document as cut out of the file: its lines, where it starts, and whether its `...` was written. */
export interface RawDocument {
  /** 1-based line of the `---` (or of the first line, for a document without one). */
  line: number;
  /** 1-based line of the first content line. */
  contentLine: number;
  lines: string[];
  closed: boolean;
}

function isMarker(line: string, marker: string): boolean {
  return line === marker || line.startsWith(`${marker} `) || line.startsWith(`${marker}\t`);
}

/** A blank or comment-only line. */
export function isBlank(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}

function hasContent(doc: RawDocument): boolean {
  return doc.lines.some((l) => !isBlank(l));
}

/**
 * Cuts a stream of lines into documents. Cassette documents are maps written in block style, so a line
 * starting with `---` or `...` cannot be inside one. `emit` is called with each document once it has
 * ended (its `...`, the next `---`, or the end of the input); documents with no content are dropped.
 *
 * @example
 * const splitter = createDocumentSplitter((doc) => docs.push(doc));
 * for (const line of text.split("\n")) splitter.push(line);
 * splitter.end();
 */
export function createDocumentSplitter(emit: (doc: RawDocument) => void): {
  push(line: string): void;
  end(): void;
} {
  let current: RawDocument | undefined;
  let lineNo = 0;
  const flush = () => {
    if (current && hasContent(current)) emit(current);
    current = undefined;
  };
  return {
    push(rawLine) {
      lineNo++;
      const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
      if (isMarker(line, "---")) {
        flush();
        current = { line: lineNo, contentLine: lineNo + 1, lines: [], closed: false };
        const rest = line.slice(4).trim();
        if (rest !== "" && !rest.startsWith("#")) {
          current.lines.push(rest);
          current.contentLine = lineNo;
        }
      } else if (isMarker(line, "...")) {
        if (current) current.closed = true;
        flush();
      } else if (current) {
        current.lines.push(line);
      } else if (!isBlank(line)) {
        current = { line: lineNo, contentLine: lineNo, lines: [line], closed: false };
      }
    },
    end: flush,
  };
}
