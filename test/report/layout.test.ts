import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { importedPaths, sources } from "../architecture/sources.js";

// Guards of the layout issue 12 set up: notify reads the consumer rules from contracts/, never from gate/,
// and one file of report/ writes JUnit and escapes XML.

const root = packageRoot();

const importsGate = (file: string, text: string) =>
  importedPaths(file, text).some((p) => p.startsWith("gate/"));

describe("notify does not import gate", () => {
  it("flags an import of gate/ (the check can fail)", () => {
    expect(
      importsGate("notify/report/format.ts", 'import type { X } from "../../gate/consumer-rules.js";'),
    ).toBe(true);
    expect(importsGate("notify/verdict.ts", 'export {\n  X,\n} from "../gate/verdict.js";')).toBe(true);
    expect(importsGate("notify/verdict.ts", 'import type { X } from "../contracts/consumer-rules.js";')).toBe(
      false,
    );
  });

  it("no file in notify/ imports from gate/", () => {
    const offenders = sources("notify").filter((file) =>
      importsGate(file, readFileSync(join(root, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});

describe("one JUnit writer", () => {
  const project = ["cli", "contracts", "core", "gate", "notify", "report", "specs"].flatMap(sources);
  const writing = (needle: RegExp) =>
    project.filter((file) => needle.test(readFileSync(join(root, file), "utf8")));

  it("only report/junit.ts writes <testsuites>", () => {
    expect(writing(/<testsuites/)).toEqual(["report/junit.ts"]);
    expect(writing(/`<testsuites\$\{/)).toEqual(["report/junit.ts"]);
  });

  it("only report/xml.ts escapes XML", () => {
    const reporting = ["report", "specs/report", "gate/report", "notify/report"].flatMap(sources);
    const escaping = reporting.filter((file) => /&quot;|&lt;/.test(readFileSync(join(root, file), "utf8")));
    expect(escaping).toEqual(["report/xml.ts"]);
    expect(writing(/(?:function|const)\s+(?:xmlEscape|escapeXml|xmlSafe)\b/)).toEqual(["report/xml.ts"]);
  });
});
