import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { readBlockDocument } from "../../proxy/cassette/block-reader.js";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { random, text, value } from "./support/random-data.js";

const RECORDINGS = new URL("../../recordings/", import.meta.url);

/** A document's lines as the cassette reader hands them over (without `---` and `...`). */
function linesOf(written: string): string[] {
  return written.slice(4, -5).split("\n");
}

function byYaml(lines: string[]): unknown {
  return parseDocument(lines.join("\n"), { uniqueKeys: true }).toJS();
}

describe("the block-style reader", () => {
  it("reads 3000 random emitted documents exactly as the yaml package does", () => {
    const next = random(11);
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const lines = linesOf(
        emitDocument({ id: i, body: value(next, 0), list: [value(next, 2)], t: text(next) }),
      );
      const fast = readBlockDocument(lines);
      if (fast === undefined) continue;
      read++;
      expect(fast, lines.join("\n")).toEqual(byYaml(lines));
      expect(Object.keys(fast as object)).toEqual(Object.keys(byYaml(lines) as object));
    }
    // Everything the emitter writes is in the reader's style: it gives up on none of it.
    expect(read).toBe(3000);
  });

  it("reads every document of the reference recordings as the yaml package does", () => {
    let documents = 0;
    for (const file of readdirSync(RECORDINGS).filter((f) => f.endsWith(".yaml"))) {
      const text = readFileSync(new URL(file, RECORDINGS), "utf8");
      for (const doc of text.split(/^---\n/m).slice(1)) {
        const lines = doc
          .replace(/\.\.\.\n$/, "")
          .replace(/\n$/, "")
          .split("\n");
        const fast = readBlockDocument(lines);
        expect(fast, `${file}: ${lines[0]}`).toBeDefined();
        expect(fast).toEqual(byYaml(lines));
        documents++;
      }
    }
    expect(documents).toBeGreaterThan(15);
  });

  it("reads literal blocks with each chomping, lists of maps and quoted keys", () => {
    const lines = [
      "a: |",
      "  one",
      "",
      "  two",
      "b: |-",
      "  x",
      "c: |+",
      "  y",
      "",
      "",
      "list:",
      "  - k: 1",
      '    "q k": "v\\n"',
      "  -",
      "    - nested",
      "  - |-",
      "    text",
      "  - []",
      '"": {}',
    ];
    expect(readBlockDocument(lines)).toEqual(byYaml(lines));
  });

  it("gives up on what it does not read, so that the yaml package reads it", () => {
    const refused = [
      ["# comment", "a: 1"],
      ["a: 1 # comment"],
      ["a: [1, 2]"],
      ["a: {b: 1}"],
      ["a: &x 1", "b: *x"],
      ["a: !!str 1"],
      ["a: 'single'"],
      ["a:", "- same indent"],
      ["a: >", "  folded"],
      ["a:"],
      ["a: 1", "a: 2"],
      ["__proto__: 1"],
      ["a: yes"],
      ["a: 0x1f"],
      ["a: .inf"],
      ["a:  two spaces"],
      ["a: 1", " b: 2"],
      ["\ta: 1"],
      ["a: |", "", "  leading blank"],
      ["a: |", "    deep", "  shallow"],
      ["a: 'x'"],
      ["key:value"],
      ["list:", "  - - compact nested list"],
    ];
    for (const lines of refused) expect(readBlockDocument(lines), lines.join("\\n")).toBeUndefined();
  });
});
