import { describe, expect, it } from "vitest";
import type { TimelineDate } from "../../contracts/index.js";
import { formatGateTimeline, gateReportModel, gateTimelineReport } from "../../gate/report/format.js";
import { runGateAcrossDates } from "../../gate/run.js";
import { REPORT_SCHEMA_VERSION } from "../../report/json.js";
import { runCli } from "../support/run-cli.js";
import { clientPath, contract, gateClient, rules } from "./support.js";

const DATES: TimelineDate[] = [
  { day: "2025-06-29", label: "day before v3-switch-off" },
  { day: "2025-06-30", label: "v3-switch-off" },
] as TimelineDate[];

/** Gate across dates against the sandbox, as the CLI runs it: only the undated scenarios, at each date. */
const across = (client: string) =>
  runGateAcrossDates(
    {
      command: [process.execPath, clientPath(client)],
      scenarios: ["uniform", "after-v3-switch-off"],
      entries: 45,
      maxRequests: 60,
      timeoutSeconds: 600,
      contract,
      rules,
    },
    DATES,
  );

describe("gate across the timeline", () => {
  it("gives the matrix of single-date runs: a client still on v3 is advised the day before and fails the day of", async () => {
    const timeline = await across("v3-forever");
    const report = gateTimelineReport(timeline, rules, contract.timeline);
    expect(report.header).toMatch(/\(against the sandbox, at \d+ dates\)$/);
    const url = timeline.runs.map((run) => ({ ...run, report: { ...run.report, upstream: "url" as const } }));
    expect(gateTimelineReport({ ...timeline, runs: url }, rules, contract.timeline).header).toMatch(
      /\(against a running server, at \d+ dates\)$/,
    );
    const matrix = report.matrix;
    expect(matrix?.basis).toBe("behaviour-at-each-date");
    expect(matrix?.note).toContain(
      "Dated scenarios left out (the dates stand in for them): after-v3-switch-off",
    );
    for (const [i, date] of DATES.entries()) {
      const single = gateReportModel(await gateClient("v3-forever", ["uniform"], { at: date.day }), rules);
      const cases = single.suites.flatMap((s) => s.cases);
      for (const row of matrix?.rows ?? []) {
        const verdict = cases.find((c) => c.rule === row.rule)?.verdict;
        const cell = row.cells[i]?.cell;
        if (cell === "not-in-force")
          expect(["pass", "skip"], `${row.rule} at ${date.day}`).toContain(verdict);
        else expect(cell, `${row.rule} at ${date.day}`).toBe(verdict);
      }
    }
    const v3 = matrix?.rows
      .find((r) => r.rule === "versions.no-v3-after-switch-off")
      ?.cells.map((c) => c.cell);
    expect(v3).toEqual(["warn", "fail"]);
    expect(report.passed).toBe(false);
    expect(report.suites.map((s) => s.name)).toEqual(["2025-06-29 gate uniform", "2025-06-30 gate uniform"]);
    const pretty = formatGateTimeline(timeline, rules, contract.timeline, "pretty");
    expect(pretty).toContain("Failing at: 2025-06-30");
  });

  it("passes a correct client at every date, a dated rule not yet in force before its day", async () => {
    const timeline = await across("correct");
    const report = gateTimelineReport(timeline, rules, contract.timeline);
    expect(report.passed, JSON.stringify(report.matrix?.rows)).toBe(true);
    const v3 = report.matrix?.rows.find((r) => r.rule === "versions.no-v3-after-switch-off")?.cells;
    expect(v3?.map((c) => c.cell)).toEqual(["not-in-force", "pass"]);
    const json = JSON.parse(formatGateTimeline(timeline, rules, contract.timeline, "json"));
    expect(json.runs.map((r: { at: string }) => r.at)).toEqual(["2025-06-29", "2025-06-30"]);
    expect(json.runs[0].scenarios[0]).not.toHaveProperty("traffic");
  });

  it("runs from the command line: gate --at-each with the matrix in its JSON report", async () => {
    const cli = await runCli([
      "gate",
      "--at-each",
      "2025-06-29,2025-06-30",
      "--scenario",
      "uniform",
      "--entries",
      "45",
      "--reporter",
      "json",
      "--",
      process.execPath,
      clientPath("v3-forever"),
    ]);
    expect(cli.code).toBe(1);
    const json = JSON.parse(cli.stdout);
    expect(json.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    const row = json.matrix.rows.find((r: { rule: string }) => r.rule === "versions.no-v3-after-switch-off");
    expect(row.cells.map((c: { cell: string }) => c.cell)).toEqual(["warn", "fail"]);
  });
});
