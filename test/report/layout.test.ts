import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";

// Guards of the layout issue 12 set up: notify reads the consumer rules from contracts/, never from gate/,
// and one file of report/ writes JUnit and escapes XML.

const root = packageRoot();

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The modules a file imports or re-exports from, resolved against the project root. */
function importedPaths(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\sfrom\s+["']([^"']+)["']/gms)].map(
    (m) => m[1] ?? "",
  );
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(root, join(root, file, "..", s)));
}

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
  });

  it("only report/xml.ts escapes XML", () => {
    const reporting = ["report", "specs/report", "gate/report", "notify/report"].flatMap(sources);
    const escaping = reporting.filter((file) => /&quot;|&lt;/.test(readFileSync(join(root, file), "utf8")));
    expect(escaping).toEqual(["report/xml.ts"]);
    expect(writing(/(?:function|const)\s+(?:xmlEscape|escapeXml|xmlSafe)\b/)).toEqual(["report/xml.ts"]);
  });
});
