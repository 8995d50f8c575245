import { describe, expect, it } from "vitest";
import { importedPaths, read, sources } from "./sources.js";

// docs/architecture.md's table of which folder imports which, against every import of the sources.

const ROOMS = ["core", "contracts", "report", "sandbox", "proxy", "specs", "gate", "notify", "cli"] as const;

/** The documented table: folder → the folders it imports, read from docs/architecture.md. */
function documented(doc: string): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const line of doc.split("\n")) {
    const cells = /^\| `([a-z]+)\/`\s*\| ([^|]+?)\s*\|$/.exec(line);
    if (!cells?.[1] || !cells[2]) continue;
    const targets = [...cells[2].matchAll(/`([a-z]+)\/`/g)].map((m) => m[1] ?? "");
    table.set(cells[1], new Set(targets));
  }
  return table;
}

/** Each edge `from -> to` between top folders, with the files that make it. */
function edges(files: readonly { file: string; text: string }[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { file, text } of files) {
    const from = file.split("/")[0] ?? "";
    for (const target of importedPaths(file, text)) {
      const to = target.split("/")[0] ?? "";
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      found.set(key, [...(found.get(key) ?? []), file]);
    }
  }
  return found;
}

/** What is wrong between the table and the imports: undocumented edges, and documented ones unused. */
function problems(table: Map<string, Set<string>>, actual: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [edge, files] of actual) {
    const [from = "", to = ""] = edge.split(" -> ");
    if (!table.get(from)?.has(to))
      out.push(`${edge} is not in the table (${[...new Set(files)].join(", ")})`);
  }
  for (const [from, targets] of table)
    for (const to of targets)
      if (!actual.has(`${from} -> ${to}`))
        out.push(`${from} -> ${to} is in the table, but no file imports it`);
  return out;
}

describe("the import directions of docs/architecture.md", () => {
  const table = documented(read("docs/architecture.md"));

  it("are stated for every folder", () => {
    expect([...table.keys()].sort()).toEqual([...ROOMS].sort());
    expect(table.get("core")?.size).toBe(0);
  });

  it("flag an import the table does not list, and a listed edge nothing uses (the check can fail)", () => {
    const files = [
      { file: "contracts/drift/report.ts", text: 'import type { Report } from "../../report/index.js";' },
      { file: "report/json.ts", text: 'import { AssopayError } from "../core/errors.js";' },
    ];
    const small = new Map([
      ["contracts", new Set<string>()],
      ["report", new Set(["core", "contracts"])],
    ]);
    expect(problems(small, edges(files))).toEqual([
      "contracts -> report is not in the table (contracts/drift/report.ts)",
      "report -> contracts is in the table, but no file imports it",
    ]);
    expect(problems(new Map([["report", new Set(["core"])]]), edges(files.slice(1)))).toEqual([]);
  });

  it("hold for every import of the sources", () => {
    const files = ROOMS.flatMap((room) => sources(room)).map((file) => ({ file, text: read(file) }));
    expect(files.length).toBeGreaterThan(200);
    expect(problems(table, edges(files))).toEqual([]);
  });
});
