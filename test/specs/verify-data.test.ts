import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docExample } from "../support/data-example.js";
import { runCli } from "../support/run-cli.js";

describe("assopay verify --data: the embedded sandbox serves the data file", () => {
  it("passes every check on the doc's example data, reading its organization", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "assopay-verify-data-")), "data.yaml");
    writeFileSync(file, docExample().text);
    const result = await runCli(["verify", "--data", file, "--at", "2025-07-01", "--reporter", "json"]);
    const report = JSON.parse(result.stdout) as { outcomes: { id: string; verdict: string }[] };
    expect(report.outcomes.filter((o) => o.verdict === "fail")).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("club-des-lecteurs");
  });

  it("refuses a bad data file (file:line, exit 2), and --data with --target", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "assopay-verify-data-")), "data.yaml");
    writeFileSync(file, "organizations:\n  - slug: Not A Slug\n");
    const bad = await runCli(["verify", "--data", file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${file}:2:`);
    const target = await runCli(["verify", "--data", file, "--target", "http://127.0.0.1:9"]);
    expect(target.code).toBe(2);
    expect(target.stderr).toMatch(/--data is the embedded sandbox's data/);
  });
});
