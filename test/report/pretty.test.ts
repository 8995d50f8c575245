import { describe, expect, it } from "vitest";
import { gateCommand } from "../../cli/commands/gate.js";
import { prettyCaseLine, useColor, writeCompact, writePretty } from "../../report/index.js";
import { verifyReport } from "../../specs/report/index.js";
import { runVerb } from "../gate/run-verb.js";
import { clientPath } from "../gate/support.js";
import { verifyReport as run } from "./fixtures.js";

describe("colours of the pretty report", () => {
  it("colours on a terminal, or when FORCE_COLOR asks", () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(useColor({}, { FORCE_COLOR: "true" })).toBe(true);
  });

  it("stays plain off a terminal, with NO_COLOR, or with FORCE_COLOR=0", () => {
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({}, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(useColor({ isTTY: false }, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: "0" })).toBe(false);
  });

  it("paints verdicts and failure headings only when asked", () => {
    const model = verifyReport(run);
    const painted = writePretty(model, { color: true });
    expect(painted).toContain("\x1b[31m✘ FAIL \x1b[0m counts/absent-after-removal");
    expect(painted).toContain("\x1b[32m✔ pass ");
    expect(writePretty(model, { color: false })).not.toContain("\x1b[");
    const item = model.suites[0]?.cases[0];
    if (!item) throw new Error("the fixture has no case");
    expect(prettyCaseLine(item, { color: false }, "  ")).toMatch(/^ {2}✔ pass {2}pagination\/token-echoed/);
  });
});

describe("failures first, and the compact report for a CI log", () => {
  const model = verifyReport(run);

  it("pretty: the failures come right after the header, before every case line", () => {
    const text = writePretty(model, { color: false });
    const failures = text.indexOf("\nFailures:\n");
    expect(failures).toBeGreaterThan(0);
    expect(text.slice(0, failures)).toBe(`${model.header}\n`);
    expect(failures).toBeLessThan(text.indexOf("✔ pass"));
    expect(failures).toBeLessThan(text.indexOf("✘ FAIL"));
  });

  it("compact: a passing report is its counts and result sentence, one line", () => {
    const passing = {
      ...model,
      suites: model.suites.map((s) => ({ ...s, cases: s.cases.filter((c) => c.verdict === "pass") })),
    };
    const text = writeCompact(passing, { color: false });
    expect(text).toMatch(/^1 passed, 0 failed, 0 warned, 0 skipped — [^\n]+\n$/);
    expect(writePretty(passing, { color: false })).not.toContain("Failures:");
  });

  it("compact (pinned): a failing gate run prints its failures and the summary, nothing else", async () => {
    const result = await runVerb(gateCommand, [
      "--entries",
      "45",
      "--max-requests",
      "60",
      "--scenario",
      "tricky-tokens",
      "--reporter",
      "compact",
      "--",
      process.execPath,
      clientPath("double-encode"),
    ]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 3)).toEqual(["Failures:", "", lines[2]]);
    expect(lines[2]).toMatch(/^1\) gate tricky-tokens › /);
    expect(result.stdout).toMatch(/^\d+\) gate tricky-tokens › crawl\.token-echoed/m);
    expect(lines.slice(-3)).toEqual(["", lines.at(-2), ""]);
    expect(lines.at(-2)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ warned, \d+ skipped.* — \S/);
    // Between them: failures only (a numbered heading, its indented explanation, blank lines), no
    // header, no case line of a passing rule, no notes.
    const body = lines.slice(2, -3);
    const strays = body.filter((line) => !(line === "" || /^\d+\) /.test(line) || line.startsWith("    ")));
    expect(strays).toEqual([]);
    expect(result.stdout).not.toMatch(/✔ pass|^PASS |^FAIL |Notes:/m);
    expect(body.filter((line) => /^\d+\) /.test(line)).length).toBe(
      Number(/(\d+) failed/.exec(lines.at(-2) ?? "")?.[1]),
    );
  });
});
