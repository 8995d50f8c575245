import { CHECK_GROUPS, type CheckOutcome, type Evidence, type RunReport } from "../runner/types.js";

/** Characters XML 1.0 cannot carry (control characters other than tab, line feed, carriage return). */
const xmlSafe = (text: string) =>
  [...text].filter((c) => c.charCodeAt(0) >= 0x20 || c === "\t" || c === "\n" || c === "\r").join("");

const escapeXml = (text: string) =>
  xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function details(outcome: CheckOutcome): string {
  const lines = [`rule: ${outcome.rule}`, `why: ${outcome.reason ?? ""}`];
  const evidence: Evidence | undefined = outcome.evidence;
  if (evidence) {
    lines.push(`request: ${evidence.request.method} ${evidence.request.url}`);
    if (evidence.response)
      lines.push(`response: ${evidence.response.status}`, `offending part: ${evidence.response.excerpt}`);
    for (const line of evidence.diagnostics ?? []) lines.push(`- ${line}`);
  }
  return lines.join("\n");
}

function testcase(outcome: CheckOutcome): string {
  const open = `    <testcase classname="assopay.verify.${escapeXml(outcome.group)}" name="${escapeXml(`${outcome.id}: ${outcome.title}`)}" time="${(outcome.durationMs / 1000).toFixed(3)}"`;
  const message = escapeXml(outcome.reason ?? "");
  switch (outcome.verdict) {
    case "pass":
      return `${open}/>`;
    case "skip":
      return `${open}>\n      <skipped message="${message}"/>\n    </testcase>`;
    case "warn":
      return `${open}>\n      <system-out>${escapeXml(`warning (planned change): ${details(outcome)}`)}</system-out>\n    </testcase>`;
    case "fail":
      return `${open}>\n      <failure message="${message}" type="${escapeXml(outcome.rule)}">${escapeXml(details(outcome))}</failure>\n    </testcase>`;
    case "error":
      return `${open}>\n      <error message="${message}" type="${escapeXml(outcome.rule)}">${escapeXml(details(outcome))}</error>\n    </testcase>`;
  }
}

/** JUnit XML: one test suite per group, one test case per check, usable by CI systems. */
export function formatJunit(report: RunReport): string {
  const suites = CHECK_GROUPS.map((group) => report.outcomes.filter((o) => o.group === group))
    .filter((outcomes) => outcomes.length > 0)
    .map((outcomes) => {
      const group = outcomes[0]?.group ?? "";
      const count = (verdict: string) => outcomes.filter((o) => o.verdict === verdict).length;
      const time = outcomes.reduce((total, o) => total + o.durationMs, 0) / 1000;
      return [
        `  <testsuite name="assopay verify: ${escapeXml(group)}" tests="${outcomes.length}" failures="${count("fail")}" errors="${count("error")}" skipped="${count("skip")}" time="${time.toFixed(3)}" timestamp="${escapeXml(report.startedAt)}">`,
        `    <properties>\n      <property name="target" value="${escapeXml(report.target)}"/>\n      <property name="at" value="${escapeXml(report.at)}"/>\n    </properties>`,
        ...outcomes.map(testcase),
        "  </testsuite>",
      ].join("\n");
    });
  const s = report.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="assopay verify" tests="${report.outcomes.length}" failures="${s.fail}" errors="${s.error}" skipped="${s.skip}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
