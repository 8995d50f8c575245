import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../contracts/ajv.js";
import { GATE_RULE_IDS, loadConsumerRules } from "../../contracts/consumer-rules.js";
import { runDrift } from "../../contracts/drift/run.js";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { formatGateReport } from "../../gate/report/format.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { driftReport } from "../../report/drift.js";
import { REPORT_FORMAT, REPORT_SCHEMA_VERSION, writeReport } from "../../report/index.js";
import { formatReport } from "../../specs/report/index.js";
import { formatTimelineReport } from "../../specs/report/timeline.js";
import { gateReport, notifyReport, verifyReport } from "./fixtures.js";

const schema = JSON.parse(readFileSync(join(packageRoot(), "report", "report.schema.json"), "utf8"));
const validate = createAjv().compile(schema);
const rules = loadConsumerRules();

const contract = loadContract();
const acrossDates = JSON.parse(
  formatTimelineReport(
    [
      {
        date: { day: "2025-06-29" as IsoDay, label: "day before v3-switch-off" },
        run: { ...verifyReport, at: "2025-06-29" },
      },
      {
        date: { day: "2025-06-30" as IsoDay, label: "v3-switch-off" },
        run: { ...verifyReport, at: "2025-06-30" },
      },
    ],
    { basis: "one-behaviour-each-date-rules", note: "crawled once" },
    contract,
    "json",
  ),
);

const at = "2026-01-15" as IsoDay;
const drift = runDrift(contract, {
  openapi: join(packageRoot(), "contracts", "reference", "openapi-v5.json"),
  at,
});

const reports: Record<string, unknown> = {
  verify: JSON.parse(formatReport(verifyReport, "json")),
  "verify --at-each": acrossDates,
  gate: JSON.parse(formatGateReport(gateReport, rules, "json")),
  notify: JSON.parse(formatNotifyReport(notifyReport, rules, "json")),
  drift: JSON.parse(writeReport(driftReport(drift), "json", { color: false }, { drift: { ...drift, at } })),
};

describe("the JSON report schema (report/report.schema.json)", () => {
  it.each(Object.entries(reports))("%s's JSON report is valid", (_verb, document) => {
    expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(document).toMatchObject({ format: REPORT_FORMAT, schemaVersion: REPORT_SCHEMA_VERSION });
  });

  it("the shared summary counts every case of every suite", () => {
    const gate = reports.gate as { summary: Record<string, number>; suites: { cases: unknown[] }[] };
    // Two scenarios, one case per gate rule each: one failed, one warned.
    const cases = 2 * GATE_RULE_IDS.length;
    expect(gate.summary).toEqual({ pass: cases - 2, fail: 1, warn: 1, skip: 0, error: 0 });
    expect(gate.suites.flatMap((s) => s.cases)).toHaveLength(cases);
    expect((reports.notify as { summary: unknown }).summary).toEqual({
      pass: 1,
      fail: 1,
      warn: 1,
      skip: 0,
      error: 0,
    });
  });

  it("refuses a report of another version, an unknown verdict, or a case without its rule", () => {
    const verify = reports.verify as { suites: { cases: Record<string, unknown>[] }[] };
    const firstCase = verify.suites[0]?.cases[0] ?? {};
    const { rule: _rule, ...ruleless } = firstCase;
    const variants = [
      { ...verify, schemaVersion: 1 },
      { ...verify, suites: [{ ...verify.suites[0], cases: [{ ...firstCase, verdict: "flaky" }] }] },
      { ...verify, suites: [{ ...verify.suites[0], cases: [ruleless] }] },
      { ...verify, surprise: true },
    ];
    for (const variant of variants) expect(validate(variant)).toBe(false);
  });

  it("carries a run across dates as its matrix and each date's own fields, and refuses a bad cell", () => {
    expect(acrossDates.matrix.dates.map((d: { day: string }) => d.day)).toEqual(["2025-06-29", "2025-06-30"]);
    expect(acrossDates.runs.map((r: { at: string }) => r.at)).toEqual(["2025-06-29", "2025-06-30"]);
    expect(acrossDates.suites[0].name).toMatch(/^2025-06-29 assopay verify: /);
    const row = acrossDates.matrix.rows[0];
    const bad = {
      ...acrossDates,
      matrix: { ...acrossDates.matrix, rows: [{ ...row, cells: [{ cell: "maybe", reason: "" }] }] },
    };
    expect(validate(bad)).toBe(false);
    const { basis: _basis, ...noBasis } = acrossDates.matrix;
    expect(validate({ ...acrossDates, matrix: noBasis })).toBe(false);
  });
});
