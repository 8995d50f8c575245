/** Spans of a text to replace: the redaction of a structured body writes its values back in place. */

/** A span of text, `[start, end)`, and what to write in its place. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/**
 * `text` with each span's value in its place, in the order of their starts (a span that starts inside
 * one already written is left out), and `between` applied to the text between them.
 *
 * @example spliceSpans("a=1&b=2", [{ start: 2, end: 3, value: "x" }]) // "a=x&b=2"
 */
export function spliceSpans(
  text: string,
  spans: readonly Span[],
  between: (part: string) => string = (part) => part,
): string {
  let out = "";
  let copied = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < copied) continue;
    out += between(text.slice(copied, span.start)) + span.value;
    copied = span.end;
  }
  return out + between(text.slice(copied));
}
