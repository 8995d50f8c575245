import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract, type TimelineDate, timelineBoundaries } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { runLint } from "../../specs/lint/run.js";
import { lintAcrossDates, lintTimelineReport } from "../../specs/lint/timeline.js";
import { runCli } from "../support/run-cli.js";

const contract = loadContract();
const CRAWL = join(packageRoot(), "recordings", "pagination-crawl.yaml");
const FORM = join(packageRoot(), "recordings", "public-form.yaml");

describe("lint across the timeline", () => {
  it("gives, date by date, the rules single-date runs find broken", async () => {
    const dates = timelineBoundaries(contract.timeline, "2026-01-01" as IsoDay);
    const report = lintTimelineReport(await lintAcrossDates(contract, [CRAWL, FORM], dates), contract);
    const matrix = report.matrix;
    expect(matrix?.basis).toBe("one-behaviour-each-date-rules");
    for (const [i, date] of dates.entries()) {
      const single = await runLint(contract, [CRAWL, FORM], date.day);
      const broken = new Set(single.interactions.flatMap((o) => o.breaches.map((b) => b.rule)));
      const failingRows = (matrix?.rows ?? []).filter((r) => r.cells[i]?.cell === "fail").map((r) => r.rule);
      expect(new Set(failingRows), date.day).toEqual(broken);
    }
    // The recording (made at 2025-04-01: counts -1 without withCount) holds only while the flip is in force.
    const cell = (day: string) => {
      const i = dates.findIndex((d) => d.day === day);
      return (matrix?.rows ?? []).some((r) => r.cells[i]?.cell === "fail");
    };
    expect(cell("2025-03-15")).toBe(false);
    expect(cell("2025-03-14")).toBe(true);
    expect(cell("2025-05-05")).toBe(true);
    expect(report.passed).toBe(false);
  });

  it("passes at every date a recording whose answers no date's rules break", async () => {
    const dates: TimelineDate[] = [
      { day: "2025-03-15", label: "withcount-default-false" },
      { day: "2025-04-01", label: "given" },
    ] as TimelineDate[];
    const report = lintTimelineReport(await lintAcrossDates(contract, [CRAWL], dates), contract);
    expect(report.passed).toBe(true);
    expect(report.matrix?.rows).toEqual([]);
  });

  it("runs from the command line with --at-each, and refuses it beside --at", async () => {
    const cli = await runCli(["lint", CRAWL, "--at-each", "2025-03-14,2025-03-15", "--reporter", "json"]);
    expect(cli.code).toBe(1);
    const json = JSON.parse(cli.stdout);
    expect(json.matrix.dates.map((d: { day: string }) => d.day)).toEqual(["2025-03-14", "2025-03-15"]);
    expect(json.runs.map((r: { at: string }) => r.at)).toEqual(["2025-03-14", "2025-03-15"]);
    const both = await runCli(["lint", CRAWL, "--at", "2025-03-14", "--at-each", "timeline"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--at and --at-each exclude each other");
  });
});
