import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";

/** Test files named in the table that another branch adds (checked as soon as they are here). */
const ON_ANOTHER_BRANCH = new Set(["test/contracts/out-dir.test.ts"]);

/** The table rows of docs/bad-inputs.md: the test file and the test's name (up to a "…"). */
function rows(): { file: string; name: string }[] {
  const text = readFileSync(join(packageRoot(), "docs", "bad-inputs.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.startsWith("|") && line.includes("test/"))
    .map((line) => {
      const cell = line.split("|").at(-2) ?? "";
      const match = /`(test\/[^`]+)` "(.+?)( …)?"\s*$/.exec(cell.trim());
      expect(match, `a test named in: ${line}`).not.toBeNull();
      return { file: match?.[1] ?? "", name: match?.[2] ?? "" };
    });
}

describe("docs/bad-inputs.md", () => {
  it("names one existing test per row", () => {
    const all = rows();
    expect(all.length).toBeGreaterThanOrEqual(25);
    const absent: string[] = [];
    for (const { file, name } of all) {
      const path = join(packageRoot(), file);
      if (!existsSync(path)) {
        absent.push(file);
        continue;
      }
      expect(readFileSync(path, "utf8"), `${file} has a test named "${name}"`).toContain(name);
    }
    expect(absent.filter((file) => !ON_ANOTHER_BRANCH.has(file))).toEqual([]);
  });
});
