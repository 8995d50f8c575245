import { describe, expect, it } from "vitest";
import { brokenRules, gateClient, severityOf, verdictOf } from "./support.js";

// The waits here are the scenarios' own (Retry-After 1 s, an HTTP-date at most 1.5 s ahead): no test
// asserts how long anything took at most.
describe("assopay gate on clients that meet 429, 503 and resets mid-crawl", () => {
  it("fails a client that retries at once whatever Retry-After asks, showing the gap it left", async () => {
    const report = await gateClient("ignores-retry-after", ["rate-limited"]);
    const verdict = verdictOf(report, "rate-limited");
    expect(verdict.passed).toBe(false);
    expect(brokenRules(verdict)).toEqual(["retry.waits-retry-after"]);
    const finding = verdict.findings.find((f) => f.rule === "retry.waits-retry-after");
    expect(finding?.reason).toMatch(
      /^retried \d+ ms after the 429 at request #(\d+) \(Retry-After: 1\), which asked to wait 1000 ms$/,
    );
    expect(finding?.evidence?.diagnostics?.[0]).toMatch(
      /^asked: not before .+ UTC; the retry came at .+ UTC, \d+ ms too early$/,
    );
    expect(finding?.evidence?.request?.url).toContain("continuationToken=");
  });

  it("fails a client that restarts the crawl from page 1 after a 503, at the request where it restarted", async () => {
    const report = await gateClient("restart-after-503", ["transient-503"]);
    const verdict = verdictOf(report, "transient-503");
    expect(brokenRules(verdict)).toEqual(["retry.resumes-with-token"]);
    const finding = verdict.findings[0];
    const refused = verdict.traffic?.find((step) => step.status === 503);
    expect(finding?.reason).toBe(
      `restarted the crawl from page 1 after the 503 at request #${refused?.seq}, instead of retrying with the token the refused call carried`,
    );
    expect(finding?.evidence?.request?.seq).toBe((refused?.seq ?? 0) + 1);
    expect(finding?.evidence?.request?.url).not.toContain("continuationToken");
    expect(report.output).toContain("[transient-503] crawled 65 items");
  });

  it("stops a client that retries a refused call without end, on run.bounded, naming the loop", async () => {
    const report = await gateClient("retries-forever", ["rate-limited"]);
    const verdict = verdictOf(report, "rate-limited");
    expect(verdict.command.stoppedBy).toBe("request-budget");
    expect(brokenRules(verdict)).toContain("run.bounded");
    expect(verdict.findings.find((f) => f.rule === "run.bounded")?.evidence?.diagnostics?.[0]).toMatch(
      /^its last \d+ requests were the same call, refused each time since the 429 at request #\d+ \(Retry-After: 1\): retries need a bound$/,
    );
  });

  it("reports a client that gives up on a reset as a failure of the call: a warning with its exit code", async () => {
    const report = await gateClient("ignores-retry-after", ["connection-reset"]);
    const verdict = verdictOf(report, "connection-reset");
    expect(verdict.passed).toBe(true);
    expect(verdict.command.exitCode).toBe(1);
    expect(verdict.findings.map((f) => [f.rule, severityOf(f)])).toEqual([
      ["retry.survives-refusal", "robustness"],
    ]);
    expect(verdict.findings[0]?.reason).toMatch(
      /^\(robustness, an error with --strict\) gave up after the connection reset at request #\d+ and exited with code 1/,
    );
    expect(verdict.findings[0]?.evidence?.diagnostics?.join("\n")).toContain("ECONNRESET");
  });
});
