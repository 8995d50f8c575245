import { describe, expect, it } from "vitest";
import { formatReport } from "../../specs/report/index.js";
import type { RunReport } from "../../specs/runner/types.js";
import { verifyReport } from "../report/fixtures.js";

const report = verifyReport;

describe("reporters", () => {
  it("pretty: one line per check, then each failure's rule, request and offending part, then a summary", () => {
    const text = formatReport(report, "pretty");
    const lines = text.split("\n");
    expect(lines.filter((l) => /^(✔ pass|✘ FAIL|- skip|! warn|✘ ERROR) /.test(l))).toHaveLength(5);
    expect(text).toContain("rule:     counts.absent-after-removal");
    expect(text).toContain("request:  GET http://127.0.0.1:1234/v5/x?withCount=true");
    expect(text).toContain('offending part: {"totalCount":45}');
    expect(text).toContain("- response.pagination.totalCount must be absent, got integer 45");
    expect(text).toContain("2) rights/auth-tokens");
    expect(text).toMatch(/1 passed, 1 failed, 1 warned, 1 skipped, 1 errored/);
  });

  it("json: the whole report, parseable", () => {
    const parsed = JSON.parse(formatReport(report, "json")) as RunReport & { tool: string };
    expect(parsed.tool).toBe("assopay verify");
    expect(parsed.outcomes).toHaveLength(5);
    expect(parsed.outcomes[1]?.evidence?.response?.excerpt).toBe('{"totalCount":45}');
  });

  it("junit: one test case per check, failures and errors typed by rule, XML escaped", () => {
    const xml = formatReport(report, "junit");
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    // No skipped="…" on <testsuites>: the Jenkins xunit JUnit schema refuses it (the suites carry it).
    expect(xml).toMatch(/<testsuites name="assopay verify" tests="5" failures="1" errors="1" time=/);
    expect(xml).toContain(
      '<failure message="totalCount must be absent, got &quot;1&quot;" type="counts.absent-after-removal">',
    );
    expect(xml).toContain('<error message="the check could not run: boom" type="auth.tokens">');
    expect(xml).toContain('<skipped message="not in force"/>');
    expect(xml).toContain("No counts &lt;after&gt; removal &amp; co");
    expect(xml).toContain(
      "<system-out>warning: totalCount is -1 (planned change)\nrule: counts.real-with-withcount",
    );
    expect(xml.match(/<testsuite /g)).toHaveLength(4);
  });
});
