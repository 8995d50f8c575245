import { describe, expect, it } from "vitest";
import { SCENARIO_NAMES } from "../../gate/scenarios.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { docExample } from "../support/data-example.js";
import { runCli } from "../support/run-cli.js";
import { clientPath, gateClient } from "./support.js";

describe("assopay gate --data: an SDK's own form shapes through every scenario", () => {
  it("runs the correct client on the data file's main form in every scenario, with no finding", async () => {
    const { text, file } = docExample();
    const report = await gateClient("correct", SCENARIO_NAMES, {
      data: buildSandboxData(parseDataFile(text, file), 1),
    });
    for (const verdict of report.scenarios) {
      expect(verdict.findings, `${verdict.scenario}\n${report.output.join("\n")}`).toEqual([]);
      expect(verdict.passed).toBe(true);
    }
    // The data file's form (45 orders), not the ready-made one; its organization has 2 orders more.
    expect(report.output).toContain("[varying-pages] crawled 45 items and 47 orders");
    expect(report.output.join("\n")).not.toMatch(/gala-annuel/);
  });

  it("refuses a bad data file before running anything: file:line, exit 2", async () => {
    const { code, stderr } = await runCli([
      "gate",
      "--data",
      clientPath("correct"),
      "--",
      process.execPath,
      clientPath("correct"),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/correct\.mjs:\d+(:\d+)?: the sandbox data file/);
  });
});
