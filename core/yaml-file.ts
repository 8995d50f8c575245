import { readFileSync } from "node:fs";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { AssopayError, type ErrorCode } from "./errors.js";

/** A YAML file parsed into plain data, able to say on which line a value sits. */
export interface YamlFile {
  file: string;
  data: unknown;
  /** The 1-based line of the value at a JSON pointer-ish path (`["routes", 3, "path"]`), or of its nearest parent. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/**
 * Reads and parses a YAML file. A missing file or a syntax error is an `AssopayError` with the file and
 * line, exit code 2.
 */
export function readYamlFile(file: string, code: ErrorCode, what: string): YamlFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new AssopayError(code, `cannot read the ${what}: ${(error as Error).message}`, {
      location: { file },
      hint: "check the path",
      cause: error,
    });
  }
  return parseYamlText(text, file, code, what);
}

export function parseYamlText(text: string, file: string, code: ErrorCode, what: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const position = first.linePos?.[0];
    throw new AssopayError(code, `the ${what} is not valid YAML: ${first.message.split("\n")[0]}`, {
      location: { file, line: position?.line, column: position?.col },
      hint: "fix the YAML syntax at that line",
    });
  }
  const data: unknown = doc.toJS({ maxAliasCount: 1000 });
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    let node: unknown = doc.contents;
    let best: Node | undefined = doc.contents ?? undefined;
    for (const key of path) {
      if (isMap(node)) node = node.get(String(key), true);
      else if (isSeq(node)) node = node.get(Number(key), true);
      else break;
      if (node && (isMap(node) || isSeq(node) || isScalar(node))) best = node;
      else break;
    }
    const offset = best?.range?.[0];
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  return { file, data, lineOf };
}
