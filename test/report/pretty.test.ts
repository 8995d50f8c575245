import { describe, expect, it } from "vitest";
import { prettyCaseLine, useColor, writePretty } from "../../report/index.js";
import { verifyReport } from "../../specs/report/index.js";
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
