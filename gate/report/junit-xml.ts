/** One JUnit test case: passed, or failed with a message and a text. */
export interface JunitCase {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly type: string; readonly message: string; readonly text: string };
}

export interface JunitSuite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
  readonly timeSeconds?: number;
  readonly properties?: Readonly<Record<string, string>>;
  /** Advice and notes: shown by CI systems, never a failure. */
  readonly systemOut?: string;
}

/** Text escaped for XML attributes and content (control characters other than tab and newlines dropped). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A JUnit XML document (the common Jenkins / GitHub Actions / GitLab dialect). */
export function junitXml(name: string, suites: readonly JunitSuite[]): string {
  const tests = suites.reduce((n, s) => n + s.cases.length, 0);
  const failures = suites.reduce((n, s) => n + s.cases.filter((c) => c.failure).length, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(name)}" tests="${tests}" failures="${failures}">`,
  ];
  for (const suite of suites) {
    const failed = suite.cases.filter((c) => c.failure).length;
    const time = suite.timeSeconds === undefined ? "" : ` time="${suite.timeSeconds.toFixed(3)}"`;
    out.push(
      `  <testsuite name="${xmlEscape(suite.name)}" tests="${suite.cases.length}" failures="${failed}" errors="0"${time}>`,
    );
    const properties = Object.entries(suite.properties ?? {});
    if (properties.length > 0) {
      out.push("    <properties>");
      for (const [key, value] of properties) {
        out.push(`      <property name="${xmlEscape(key)}" value="${xmlEscape(value)}"/>`);
      }
      out.push("    </properties>");
    }
    for (const c of suite.cases) {
      const head = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}"`;
      if (!c.failure) {
        out.push(`${head}/>`);
        continue;
      }
      out.push(`${head}>`);
      out.push(
        `      <failure type="${xmlEscape(c.failure.type)}" message="${xmlEscape(c.failure.message)}">${xmlEscape(c.failure.text)}</failure>`,
      );
      out.push("    </testcase>");
    }
    if (suite.systemOut) out.push(`    <system-out>${xmlEscape(suite.systemOut)}</system-out>`);
    out.push("  </testsuite>");
  }
  out.push("</testsuites>", "");
  return out.join("\n");
}
