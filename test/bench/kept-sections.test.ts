import { describe, expect, it } from "vitest";
import { inSuiteOrder, keptSections, withMeasuredLine } from "../../bench/lib/report.js";

const OLD = [
  "# Benchmarks",
  "",
  "- Run: 2026-11-24T04:20:34.795Z, suites: recording, replay",
  "",
  "## Recording",
  "",
  "Command: `npm run bench -- --only recording`",
  "",
  "| a |",
  "",
  "## Replay",
  "",
  "Command: `npm run bench -- --only replay`",
  "",
  "Measured in the run of 2026-11-20T10:00:00.000Z.",
  "",
  "| b |",
].join("\n");

describe("a partial bench run keeps the sections of the suites it did not run", () => {
  it("drops the sections of the suites it ran, and keeps the others with the run that measured them", () => {
    const kept = keptSections(OLD, ["recording"]);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain("## Replay");
    expect(kept[0]).toContain("Measured in the run of 2026-11-20T10:00:00.000Z.");
    const recording = keptSections(OLD, ["replay"]);
    expect(recording[0]).toContain(
      "Command: `npm run bench -- --only recording`\n\nMeasured in the run of 2026-11-24T04:20:34.795Z.",
    );
    expect(keptSections(OLD, ["recording", "replay"])).toEqual([]);
    // A section measured by a script of its own, no suite of the bench: kept whatever ran, unchanged.
    const own = "## Slow provider\n\nCommand: `node --import tsx bench/verify-latency.ts`\n\n| c |";
    expect(keptSections(`${OLD}\n\n${own}`, ["recording", "replay"])).toEqual([own]);
    expect(keptSections("", ["recording"])).toEqual([]);
  });

  it("orders sections by suite, fresh and kept alike", () => {
    const fresh = withMeasuredLine(
      "## Replay\n\nCommand: `npm run bench -- --only replay`",
      new Date(0).toISOString(),
    );
    expect(fresh).toContain("Measured in the run of 1970-01-01T00:00:00.000Z.");
    expect(withMeasuredLine(fresh, "later")).toBe(fresh);
    const ordered = inSuiteOrder([fresh, ...keptSections(OLD, ["replay"])], ["recording", "replay"]);
    expect(ordered.map((s) => s.split("\n")[0])).toEqual(["## Recording", "## Replay"]);
  });
});
