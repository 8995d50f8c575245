import { explanation } from "./evidence.js";
import { type Finding, type Report, type ReportSuite, summarize } from "./model.js";
import { xmlEscape } from "./xml.js";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

const attributes = (pairs: readonly (readonly [string, string | number | undefined])[]) =>
  pairs
    .filter((pair): pair is readonly [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join("");

function testcase(item: Finding, classname: string): string[] {
  const name = item.title === undefined ? item.id : `${item.id}: ${item.title}`;
  const time = item.durationMs === undefined ? undefined : seconds(item.durationMs);
  const open = `    <testcase${attributes([
    ["classname", classname],
    ["name", name],
    ["time", time],
  ])}`;
  const message = xmlEscape(item.reason);
  const text = xmlEscape(explanation(item).join("\n"));
  switch (item.verdict) {
    case "pass":
      return [`${open}/>`];
    case "skip":
      return [`${open}>`, `      <skipped message="${message}"/>`, "    </testcase>"];
    case "warn":
      return [`${open}>`, `      <system-out>warning: ${message}\n${text}</system-out>`, "    </testcase>"];
    case "fail":
    case "error": {
      const tag = item.verdict === "fail" ? "failure" : "error";
      return [
        `${open}>`,
        `      <${tag} message="${message}" type="${xmlEscape(item.rule)}">${text}</${tag}>`,
        "    </testcase>",
      ];
    }
  }
}

function testsuite(suite: ReportSuite, prefix: string): string[] {
  const s = summarize([suite]);
  const open = `  <testsuite${attributes([
    ["name", suite.name],
    ["tests", suite.cases.length],
    ["failures", s.fail],
    ["errors", s.error],
    ["skipped", s.skip],
    ["time", suite.durationMs === undefined ? undefined : seconds(suite.durationMs)],
    ["timestamp", suite.timestamp],
  ])}>`;
  const properties = Object.entries(suite.properties);
  return [
    open,
    ...(properties.length === 0
      ? []
      : [
          "    <properties>",
          ...properties.map(
            ([name, value]) =>
              `      <property${attributes([
                ["name", name],
                ["value", value],
              ])}/>`,
          ),
          "    </properties>",
        ]),
    ...suite.cases.flatMap((item) => testcase(item, `${prefix}.${item.group}`)),
    ...(suite.notes.length === 0
      ? []
      : [`    <system-out>${xmlEscape(suite.notes.join("\n"))}</system-out>`]),
    "  </testsuite>",
  ];
}

/**
 * JUnit XML in the dialect of the Jenkins xunit plugin's `junit-10.xsd` (read by Jenkins, GitHub
 * Actions and GitLab): one `<testsuite>` per suite, one `<testcase>` per case. A failure is `<failure>`,
 * a check that could not run `<error>`, a skip `<skipped>`, a warning the case's `<system-out>`; the
 * suite's notes go to its `<system-out>`. `<testsuites>` carries no `skipped` (the schema refuses it).
 */
export function writeJunit(report: Report): string {
  const s = summarize(report.suites);
  const tests = report.suites.reduce((n, suite) => n + suite.cases.length, 0);
  const prefix = report.tool.replace(" ", ".");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes([
      ["name", report.name],
      ["tests", tests],
      ["failures", s.fail],
      ["errors", s.error],
      ["time", report.durationMs === undefined ? undefined : seconds(report.durationMs)],
    ])}>`,
    ...report.suites.flatMap((suite) => testsuite(suite, prefix)),
    "</testsuites>",
    "",
  ].join("\n");
}
