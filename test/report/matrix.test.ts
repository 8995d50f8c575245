import { describe, expect, it } from "vitest";
import { atEachFlag, parseFlags } from "../../cli/flags.js";
import { loadContract, ruleStartOf, timelineBoundaries } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { isAssopayError } from "../../core/errors.js";
import { type Finding, type Report, timelineMatrix, writeReport } from "../../report/index.js";

const contract = loadContract();
const TODAY = "2026-11-24" as IsoDay;

const report = (cases: Finding[]): Report => ({
  tool: "assopay verify",
  name: "assopay verify",
  header: "h",
  result: "r",
  passed: cases.every((c) => c.verdict !== "fail"),
  suites: [{ name: "s", properties: {}, cases, notes: [] }],
});
const item = (id: string, rule: string, verdict: Finding["verdict"]): Finding => ({
  id,
  rule,
  group: "g",
  verdict,
  reason: `${id} ${verdict}`,
});

describe("the timeline's boundaries", () => {
  it("are the day before and the day of each dated change, plus today, in order, each once", () => {
    const dates = timelineBoundaries(contract.timeline, TODAY);
    expect(dates).toHaveLength(contract.timeline.entries.length * 2 + 1);
    expect(dates.map((d) => d.day)).toEqual([...dates.map((d) => d.day)].sort());
    expect(dates[0]).toEqual({ day: "2024-12-15", label: "day before withcount-introduced" });
    expect(dates).toContainEqual({ day: "2025-06-29", label: "day before v3-switch-off" });
    expect(dates).toContainEqual({ day: "2025-06-30", label: "v3-switch-off" });
    expect(dates.at(-1)).toEqual({ day: TODAY, label: "today" });
  });

  it("name a day that is two things by both", () => {
    const dates = timelineBoundaries(contract.timeline, "2025-06-30" as IsoDay);
    expect(dates.find((d) => d.day === "2025-06-30")?.label).toBe("v3-switch-off, today");
  });
});

describe("--at-each", () => {
  const parse = (argv: string[]) =>
    atEachFlag(
      "lint",
      parseFlags("lint", argv, { at: { type: "string" }, "at-each": { type: "string" } }),
      contract.timeline,
      TODAY,
    );

  it("takes the timeline, or a list of days in date order each once, named where they fall on a boundary", () => {
    expect(parse([])).toBeUndefined();
    expect(parse(["--at-each", "timeline"])).toEqual(timelineBoundaries(contract.timeline, TODAY));
    expect(parse(["--at-each", "2025-06-30, 2025-01-02,2025-06-30"])).toEqual([
      { day: "2025-01-02", label: "given" },
      { day: "2025-06-30", label: "v3-switch-off" },
    ]);
  });

  it.each([
    [["--at-each", "2025-02-30"], /--at-each must be a calendar day/],
    [["--at-each", " , "], /needs "timeline" or a list of days/],
    [["--at", "2025-01-01", "--at-each", "timeline"], /--at and --at-each exclude each other/],
  ])("refuses %j as a usage error", (argv, message) => {
    try {
      parse(argv);
      expect.unreachable();
    } catch (error) {
      expect(isAssopayError(error) && error.code).toBe("usage");
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe("the matrix of a run across dates", () => {
  const dates = [
    { day: "2025-03-14", label: "day before withcount-default-false" },
    { day: "2025-03-15", label: "withcount-default-false" },
  ];
  const matrix = timelineMatrix({
    runs: [
      {
        date: dates[0] ?? { day: "", label: "" },
        report: report([
          item("a", "counts.minus-one-without-withcount", "skip"),
          item("b", "pagination.complete", "pass"),
          item("b", "pagination.complete", "warn"),
          item("c", "pagination.token-echoed", "fail"),
          item("d", "versions.v3-switched-off", "fail"),
        ]),
      },
      {
        date: dates[1] ?? { day: "", label: "" },
        report: report([
          item("a", "counts.minus-one-without-withcount", "fail"),
          item("b", "pagination.complete", "pass"),
        ]),
      },
    ],
    basis: "behaviour-at-each-date",
    note: "n",
    rowOf: (c) => c.id,
    absent: { cell: "skip", reason: "not run at this date" },
    startOf: ruleStartOf(contract.timeline, contract.rules),
  });
  const cells = (id: string) => matrix.rows.find((r) => r.id === id)?.cells.map((c) => c.cell);

  it("shows a dated rule before its date as not yet in force, and in force from it", () => {
    expect(cells("a")).toEqual(["not-in-force", "fail"]);
    expect(cells("d")).toEqual(["fail", "not-in-force"]);
    expect(matrix.rows.find((r) => r.id === "a")?.cells[0]?.reason).toBe(
      "not yet in force: withcount-default-false from 2025-03-15",
    );
  });

  it("keeps the worst verdict of a row's cases, a failure even before the rule's date, and a skip where it did not run", () => {
    expect(cells("b")).toEqual(["warn", "pass"]);
    expect(cells("c")).toEqual(["fail", "skip"]);
    expect(matrix.dates).toEqual(dates);
  });

  it("prints as a table of marks with the failing dates named", () => {
    const text = writeReport({ ...report([]), matrix }, "pretty", { color: false });
    expect(text).toContain("   1. 2025-03-14  day before withcount-default-false");
    expect(text).toMatch(/ {2}a {20,} ○ {2}✘/);
    expect(text).toContain("Failing at: 2025-03-14, 2025-03-15");
  });
});
