import { describe, expect, it } from "vitest";
import type { Finding } from "../../core/finding.js";
import { SCENARIO_NAMES } from "../../gate/scenarios.js";
import { brokenRules, gateClient, moreOf, severityOf, verdictOf } from "./support.js";

describe("assopay gate on the test clients", () => {
  it("passes the correct client in every scenario, with no finding at all", async () => {
    const report = await gateClient("correct", SCENARIO_NAMES);
    expect(report.scenarios.map((v) => v.scenario)).toEqual(SCENARIO_NAMES);
    for (const verdict of report.scenarios) {
      expect(verdict.findings, `${verdict.scenario}\n${report.output.join("\n")}`).toEqual([]);
      expect(verdict.passed).toBe(true);
      expect(verdict.command.exitCode).toBe(0);
      expect(verdict.crawls).toBe(2);
    }
    expect(report.passed).toBe(true);
    expect(report.output).toContain("[varying-pages] crawled 45 items and 45 orders");
  });

  it("stops a client that loops while a token is present, and names the rule; a final page without token lets it pass", async () => {
    const report = await gateClient("loop-while-token", [
      "final-token-echo",
      "uniform",
      "final-token-absent",
    ]);
    for (const scenario of ["final-token-echo", "uniform"] as const) {
      const verdict = verdictOf(report, scenario);
      expect(brokenRules(verdict)).toEqual(["crawl.no-call-after-empty-page", "run.bounded"]);
      expect(verdict.command.stoppedBy).toBe("request-budget");
      const finding = verdict.findings.find((f) => f.rule === "crawl.no-call-after-empty-page");
      expect(finding?.evidence?.request?.url).toMatch(
        /^\/v5\/organizations\/amis-du-bac-a-sable\/forms\/Event\/gala-annuel\/items\?continuationToken=/,
      );
      expect(moreOf(finding)).toBeGreaterThan(10);
    }
    expect(verdictOf(report, "final-token-absent").findings).toEqual([]);
  });

  it("fails a client that trusts totalPages: -1 before the removal, absent after", async () => {
    const report = await gateClient("trust-total-pages", ["before-count-removal", "after-count-removal"]);
    const before = verdictOf(report, "before-count-removal");
    expect(brokenRules(before)).toEqual(["crawl.reaches-empty-page"]);
    expect(before.findings[0]?.evidence?.diagnostics?.join("\n")).toContain("totalPages -1");
    expect(before.findings[0]?.evidence?.request?.seq).toBe(2);
    const after = verdictOf(report, "after-count-removal");
    expect(brokenRules(after)).toEqual(["crawl.reaches-empty-page"]);
    expect(after.findings[0]?.evidence?.diagnostics?.join("\n")).toContain("removed since 2025-05-05");
  });

  it("fails a client that encodes the token twice, naming the token given and the token sent", async () => {
    const report = await gateClient("double-encode", ["tricky-tokens", "uniform"]);
    for (const verdict of report.scenarios) {
      expect(brokenRules(verdict)).toEqual(["crawl.token-echoed", "run.command-succeeds"]);
      const finding = verdict.findings.find((f) => f.rule === "crawl.token-echoed");
      expect(finding?.evidence?.diagnostics?.join("\n")).toContain("percent-encoded twice");
      expect(finding?.evidence?.request?.url).toContain("%25");
      expect(finding?.evidence?.response?.status).toBe(400);
    }
  });

  it("fails a client that does not encode the token, already in uniform (service tokens hold + / =)", async () => {
    const report = await gateClient("no-encode", ["tricky-tokens", "uniform"]);
    for (const verdict of report.scenarios) {
      expect(brokenRules(verdict)).toEqual(["crawl.token-echoed", "run.command-succeeds"]);
      const finding = verdict.findings.find((f) => f.rule === "crawl.token-echoed");
      expect(finding?.evidence?.diagnostics?.join("\n")).toContain("without percent-encoding");
    }
  });

  it("fails a client that stops on a short page", async () => {
    const report = await gateClient("stop-short-page", ["varying-pages"]);
    const verdict = verdictOf(report, "varying-pages");
    expect(brokenRules(verdict)).toEqual(["crawl.reaches-empty-page"]);
    expect(verdict.findings[0]?.evidence?.diagnostics?.join("\n")).toContain("fewer than pageSize 20");
    // The short page says why it stopped: no second, unsupported cause about totalPages.
    expect(verdict.findings[0]?.evidence?.diagnostics?.join("\n")).not.toContain("totalPages");
  });

  it("fails a client that calls v3 after the switch-off, and only advises it before", async () => {
    const report = await gateClient("v3-forever", ["before-v3-switch-off", "after-v3-switch-off"]);
    const before = verdictOf(report, "before-v3-switch-off");
    expect(before.passed).toBe(true);
    expect(before.findings.map((f) => [f.rule, severityOf(f)])).toEqual([
      ["versions.no-v3-after-switch-off", "advice"],
    ]);
    const after = verdictOf(report, "after-v3-switch-off");
    expect(brokenRules(after)).toEqual(["run.command-succeeds", "versions.no-v3-after-switch-off"]);
    expect(
      after.findings.find((f) => f.rule === "versions.no-v3-after-switch-off")?.evidence?.response?.status,
    ).toBe(404);
  });

  it("fails a client whose first call sends an empty continuationToken, though the server answers it", async () => {
    const report = await gateClient("empty-first-token", ["uniform"]);
    const verdict = verdictOf(report, "uniform");
    expect(verdict.command.exitCode).toBe(0);
    expect(brokenRules(verdict)).toEqual(["crawl.first-call-without-token"]);
    expect(verdict.findings[0]?.evidence?.request?.url).toMatch(/[?&]continuationToken=$/);
  });

  it("only advises a client that sends withCount=true, before and after the removal", async () => {
    const report = await gateClient("withcount-always", ["before-count-removal", "after-count-removal"]);
    const before = verdictOf(report, "before-count-removal");
    expect(before.passed).toBe(true);
    expect(before.findings.map((f) => [f.rule, severityOf(f)])).toEqual([
      ["counts.withcount-when-needed", "advice"],
    ]);
    const after = verdictOf(report, "after-count-removal");
    expect(after.passed).toBe(true);
    expect(after.findings.map((f) => [f.rule, severityOf(f)])).toEqual([
      ["counts.no-withcount-after-removal", "advice"],
    ]);
  });

  it("stops a client that loops on a 401 without a fresh token: the loop fails, the missing renewal warns", async () => {
    const report = await gateClient("loop-on-401", ["token-expiry", "uniform"]);
    const verdict = verdictOf(report, "token-expiry");
    expect(brokenRules(verdict)).toEqual(["run.bounded"]);
    expect(severityOf(verdict.findings.find((f) => f.rule === "auth.fresh-token-after-401") as Finding)).toBe(
      "robustness",
    );
    expect(verdict.command.stoppedBy).toBe("request-budget");
    expect(verdictOf(report, "uniform").passed).toBe(true);
  });

  it("with --strict, the missing renewal after a 401 fails too", async () => {
    const report = await gateClient("loop-on-401", ["token-expiry"], { strict: true });
    expect(brokenRules(verdictOf(report, "token-expiry"))).toEqual([
      "auth.fresh-token-after-401",
      "run.bounded",
    ]);
  });
});
