import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import { loadContract } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { formatGateReport } from "../../gate/report/format.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { formatReport } from "../../specs/report/index.js";
import { formatTimelineReport } from "../../specs/report/timeline.js";
import { gateReport, notifyReport, verifyReport } from "./fixtures.js";

// Every verb's JUnit report is checked by a real XSD validator (xmllint, from Debian's libxml2-utils,
// installed by scripts/ensure-xmllint.sh before the tests) against the Jenkins xunit dialect.

const XSD = join(packageRoot(), "test", "report", "fixtures", "junit-jenkins.xsd");
const rules = loadConsumerRules();

/** xmllint's verdict on a document: valid, or its complaints. */
function validate(xml: string): { valid: boolean; errors: string } {
  const run = spawnSync("xmllint", ["--noout", "--schema", XSD, "-"], { input: xml, encoding: "utf8" });
  if (run.error) throw new Error(`xmllint did not run (npm test installs it): ${run.error.message}`);
  return { valid: run.status === 0, errors: run.stderr };
}

const reports = {
  verify: formatReport(verifyReport, "junit"),
  gate: formatGateReport(gateReport, rules, "junit"),
  notify: formatNotifyReport(notifyReport, rules, "junit"),
  "verify --at-each": formatTimelineReport(
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
    { basis: "behaviour-at-each-date", note: "a sandbox per date" },
    loadContract(),
    "junit",
  ),
};

describe("JUnit reports against the Jenkins xunit schema", () => {
  it.each(Object.entries(reports))("%s's report is valid", (_verb, xml) => {
    expect(validate(xml)).toEqual({ valid: true, errors: "- validates\n" });
  });

  it("refuses what verify wrote before: skipped on <testsuites>", () => {
    const old = reports.verify.replace(/<testsuites ([^>]*)>/, '<testsuites $1 skipped="1">');
    const verdict = validate(old);
    expect(verdict.valid).toBe(false);
    expect(verdict.errors).toMatch(
      /Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed/,
    );
  });

  it("refuses suite children out of order and a case without a name", () => {
    const late = reports.notify.replace(
      /(<properties>[\s\S]*?<\/properties>\n)([\s\S]*?)(\s*<\/testsuite>)/,
      "$2\n$1$3",
    );
    expect(validate(late).valid).toBe(false);
    expect(
      validate(reports.gate.replace(/<testcase classname="([^"]*)" name="[^"]*"/, '<testcase classname="$1"'))
        .valid,
    ).toBe(false);
  });
});
