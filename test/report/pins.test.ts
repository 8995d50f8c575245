import { describe, expect, it } from "vitest";
import { GATE_RULE_IDS, loadConsumerRules } from "../../contracts/consumer-rules.js";
import { formatGateReport } from "../../gate/report/format.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { formatReport } from "../../specs/report/index.js";
import { gateReport, notifyReport, verifyReport } from "./fixtures.js";

// Pins of what the three verbs' reports say (ids, verdicts, reasons, evidence, fixes, counts), written
// against the per-verb formatters before they moved to report/: the move must keep every one of them.

const rules = loadConsumerRules();

/** The one line holding every part (so that a verdict and its id are seen together). */
function lineWith(text: string, ...parts: (string | RegExp)[]): string | undefined {
  return text
    .split("\n")
    .find((line) => parts.every((p) => (typeof p === "string" ? line.includes(p) : p.test(line))));
}

const decodeXml = (xml: string) =>
  xml
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The text of the first `<testcase>` whose name starts with `name` (undefined when there is none). */
function testcase(xml: string, name: string): string | undefined {
  const start = xml.indexOf(` name="${name}`);
  if (start < 0) return undefined;
  const open = xml.lastIndexOf("<testcase", start);
  const selfClosed = xml.indexOf("/>", start);
  const closed = xml.indexOf("</testcase>", start);
  const nextOpen = xml.indexOf("<testcase", start);
  const end =
    closed >= 0 && (nextOpen < 0 || closed < nextOpen) ? closed + "</testcase>".length : selfClosed + 2;
  return decodeXml(xml.slice(open, end));
}

describe("verify's reports (pinned)", () => {
  it("pretty: each check with its verdict, the failure's rule and evidence, the counts", () => {
    const text = formatReport(verifyReport, "pretty");
    expect(lineWith(text, /✔ pass/, "pagination/token-echoed", "12 listings")).toBeDefined();
    expect(lineWith(text, /✘ FAIL/, "counts/absent-after-removal")).toBeDefined();
    expect(lineWith(text, /- skip/, "versions/v3-switched-off", "not in force")).toBeDefined();
    expect(lineWith(text, /! warn/, "counts/real-with-withcount", "planned change")).toBeDefined();
    expect(lineWith(text, /✘ ERROR/, "rights/auth-tokens", "boom")).toBeDefined();
    expect(lineWith(text, "rule:", "counts.absent-after-removal")).toBeDefined();
    expect(lineWith(text, "why:", 'totalCount must be absent, got "1"')).toBeDefined();
    expect(lineWith(text, "request:", "GET http://127.0.0.1:1234/v5/x?withCount=true&a=b")).toBeDefined();
    expect(lineWith(text, "authorization: Bearer abcdef…")).toBeDefined();
    expect(lineWith(text, "response:", "200")).toBeDefined();
    expect(lineWith(text, 'offending part: {"totalCount":45}')).toBeDefined();
    expect(lineWith(text, "- response.pagination.totalCount must be absent, got integer 45")).toBeDefined();
    expect(lineWith(text, "2) rights/auth-tokens")).toBeDefined();
    expect(text).toContain("1 passed, 1 failed, 1 warned, 1 skipped, 1 errored");
    expect(text).toContain("http://127.0.0.1:1234 as of 2025-06-15");
    expect(text).not.toContain("\x1b[");
  });

  it("json: every outcome with its verdict, reason and evidence, and the summary", () => {
    const json = JSON.parse(formatReport(verifyReport, "json"));
    expect(json.tool).toBe("assopay verify");
    expect(json.target).toBe("http://127.0.0.1:1234");
    expect(json.at).toBe("2025-06-15");
    expect(json.summary).toEqual({ pass: 1, fail: 1, skip: 1, warn: 1, error: 1 });
    expect(json.outcomes.map((o: { id: string; verdict: string }) => `${o.id}=${o.verdict}`)).toEqual([
      "pagination/token-echoed=pass",
      "counts/absent-after-removal=fail",
      "versions/v3-switched-off=skip",
      "counts/real-with-withcount=warn",
      "rights/auth-tokens=error",
    ]);
    expect(json.outcomes[1].reason).toBe('totalCount must be absent, got "1"');
    expect(json.outcomes[1].evidence).toEqual(verifyReport.outcomes[1]?.evidence);
    expect(json.outcomes[3].downgraded).toBe(true);
  });

  it("junit: one case per check, typed failures and errors with their evidence, skips, warnings", () => {
    const xml = formatReport(verifyReport, "junit");
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="assopay verify"/);
    expect(xml).toMatch(/<testsuites [^>]*tests="5" failures="1" errors="1"/);
    expect(xml.match(/<testsuite /g)).toHaveLength(4);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain('classname="assopay.verify.counts"');
    expect(xml).toContain("No counts &lt;after&gt; removal &amp; co");
    const failed = testcase(xml, "counts/absent-after-removal:") ?? "";
    expect(failed).toContain(
      '<failure message="totalCount must be absent, got "1"" type="counts.absent-after-removal">',
    );
    expect(failed).toContain("request: GET http://127.0.0.1:1234/v5/x?withCount=true&a=b");
    expect(failed).toContain('offending part: {"totalCount":45}');
    expect(failed).toContain("- response.pagination.totalCount must be absent, got integer 45");
    expect(testcase(xml, "rights/auth-tokens:")).toContain(
      '<error message="the check could not run: boom" type="auth.tokens">',
    );
    expect(testcase(xml, "versions/v3-switched-off:")).toContain('<skipped message="not in force"/>');
    expect(testcase(xml, "counts/real-with-withcount:")).toMatch(/<system-out>warning.*planned change/);
    expect(testcase(xml, "pagination/token-echoed:")).not.toMatch(/<failure|<error|<skipped/);
    expect(xml).toContain('<property name="target" value="http://127.0.0.1:1234"/>');
  });
});

describe("gate's reports (pinned)", () => {
  it("pretty: each scenario's verdict, the broken rule with its request, details and fix, advice, the result", () => {
    const text = formatGateReport(gateReport, rules, "pretty");
    expect(lineWith(text, "PASS", "uniform")).toBeDefined();
    expect(lineWith(text, "FAIL", "tricky-tokens", "9 requests", "2 crawls", "exit 3")).toBeDefined();
    expect(lineWith(text, "crawl.token-echoed", "sent back a token that differs")).toBeDefined();
    expect(
      lineWith(text, "request", "#3", "GET /v5/organizations/o/forms/Event/f/items?continuationToken=%252B"),
    ).toBeDefined();
    expect(lineWith(text, "400")).toBeDefined();
    expect(lineWith(text, "given: +abc")).toBeDefined();
    expect(lineWith(text, "likely: it was percent-encoded twice")).toBeDefined();
    expect(lineWith(text, "2 more like it")).toBeDefined();
    expect(lineWith(text, "fix:", rules.byId("crawl.token-echoed").fix)).toBeDefined();
    expect(lineWith(text, "counts.withcount-when-needed", /advice|warn/, "asked withCount")).toBeDefined();
    expect(text).not.toContain(`fix: ${rules.byId("counts.withcount-when-needed").fix}`);
    expect(text).toContain("1 of 2 scenarios break a rule");
    expect(text).toContain("node crawl.mjs");
  });

  it("json: every scenario's findings, each with its rule's fix", () => {
    const json = JSON.parse(formatGateReport(gateReport, rules, "json"));
    expect(json.tool).toBe("assopay gate");
    expect(json.passed).toBe(false);
    expect(json.scenarios.map((s: { scenario: string; passed: boolean }) => [s.scenario, s.passed])).toEqual([
      ["uniform", true],
      ["tricky-tokens", false],
    ]);
    const [broken, advice] = json.scenarios[1].findings;
    expect(json.scenarios[1].crawls).toBe(2);
    expect(broken.rule).toBe("crawl.token-echoed");
    expect(broken.evidence.request.seq).toBe(3);
    expect(broken.evidence.diagnostics).toContain("likely: it was percent-encoded twice");
    expect(broken.fix).toBe(rules.byId("crawl.token-echoed").fix);
    expect(advice).toMatchObject({ verdict: "warn", reason: expect.stringMatching(/^\(advice\)/) });
  });

  it("junit: one suite per scenario, one case per rule, the failure with its evidence and fix", () => {
    const xml = formatGateReport(gateReport, rules, "junit");
    expect(xml).toMatch(/<testsuites name="assopay gate: node crawl.mjs"/);
    // Two scenarios, one case per gate rule each.
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${2 * GATE_RULE_IDS.length}" failures="1"`));
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toContain('<testcase classname="assopay.gate.uniform" name="crawl.token-echoed"/>');
    const tricky = xml.slice(xml.indexOf('<testsuite name="gate tricky-tokens"'));
    const failed = testcase(tricky, 'crawl.token-echoed"') ?? "";
    expect(failed).toContain('classname="assopay.gate.tricky-tokens"');
    expect(failed).toMatch(/<failure [^>]*type="crawl.token-echoed"/);
    expect(failed).toContain('message="sent back a token that differs from the one given"');
    expect(failed).toContain("GET /v5/organizations/o/forms/Event/f/items?continuationToken=%252B");
    expect(failed).toMatch(/#3/);
    expect(failed).toContain("likely: it was percent-encoded twice");
    expect(failed).toContain(`fix: ${rules.byId("crawl.token-echoed").fix}`);
    expect(tricky).toContain("asked withCount on every page");
    expect(tricky).toContain('<property name="at" value="2025-06-15"/>');
  });
});

describe("notify's reports (pinned)", () => {
  it("pretty: each case's verdict and reason, the failing rule with its fix, the diagnosis, the result", () => {
    const text = formatNotifyReport(notifyReport, rules, "pretty");
    expect(lineWith(text, "PASS", "signed:Order") ?? lineWith(text, "✔ pass", "signed:Order")).toBeDefined();
    expect(lineWith(text, "FAIL", "raw:escaped")).toBeDefined();
    expect(text).toContain("answered 401: it verified a re-serialisation, not the raw bytes");
    expect(lineWith(text, /NOTE|warn/, "uppercase-hex")).toBeDefined();
    expect(text).toContain("answered 401: it compares the hex case-sensitively");
    expect(lineWith(text, "notify.verifies-raw-bytes")).toBeDefined();
    expect(lineWith(text, "fix:", rules.byId("notify.verifies-raw-bytes").fix)).toBeDefined();
    expect(text).toContain("it verifies a re-serialisation of the body");
    expect(text).toContain("1 of 3 cases fail (notify.verifies-raw-bytes)");
  });

  it("json: every case with its verdict and reason, and the diagnosis", () => {
    const json = JSON.parse(formatNotifyReport(notifyReport, rules, "json"));
    expect(json.tool).toBe("assopay notify");
    expect(json.to).toBe(notifyReport.to);
    expect(json.passed).toBe(false);
    expect(json.cases.map((c: { id: string; verdict: string }) => `${c.id}=${c.verdict}`)).toEqual([
      "signed:Order=pass",
      "raw:escaped=fail",
      "uppercase-hex=warn",
    ]);
    expect(json.cases[1].reason).toBe(notifyReport.cases[1]?.reason);
    expect(json.diagnosis).toEqual(notifyReport.diagnosis);
  });

  it("junit: a case per judged case, the failure typed by rule with its fix, notes and diagnosis shown", () => {
    const xml = formatNotifyReport(notifyReport, rules, "junit");
    expect(xml).toMatch(/<testsuites name="assopay notify: http:\/\/127.0.0.1:3000\/hook\?a=1&amp;b=2"/);
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
    expect(xml).toContain('<testcase classname="assopay.notify.notify.accepts-signed" name="signed:Order"/>');
    const failed = testcase(xml, 'raw:escaped"') ?? "";
    expect(failed).toContain('classname="assopay.notify.notify.verifies-raw-bytes"');
    expect(failed).toMatch(/<failure [^>]*type="notify.verifies-raw-bytes"/);
    expect(failed).toContain('message="answered 401: it verified a re-serialisation, not the raw bytes"');
    expect(failed).toContain(`fix: ${rules.byId("notify.verifies-raw-bytes").fix}`);
    expect(xml).toContain("uppercase-hex: answered 401: it compares the hex case-sensitively");
    expect(xml).toContain("it verifies a re-serialisation of the body");
    expect(xml).toContain('<property name="to" value="http://127.0.0.1:3000/hook?a=1&amp;b=2"/>');
  });
});
