import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gateCommand } from "../../cli/commands/gate.js";
import { startSandbox } from "../../sandbox/index.js";
import { runVerb } from "./run-verb.js";
import { clientPath } from "./support.js";

const node = process.execPath;
const small = ["--entries", "45", "--max-requests", "60"];

/** Whether a process runs (a zombie waiting to be reaped by an init that never does counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

async function gone(pid: number): Promise<boolean> {
  // Up to a minute: a loaded machine reaps late, a process left running never goes.
  for (let i = 0; i < 1200 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return !alive(pid);
}

describe("assopay gate on the command line", () => {
  it("prints each scenario's verdict, the command's output prefixed on stderr, and exits 0", async () => {
    const result = await runVerb(gateCommand, [
      ...small,
      "--scenario",
      "uniform,tricky-tokens",
      "--",
      node,
      clientPath("correct"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PASS uniform \(\d{4}-\d\d-\d\d\): 9 requests, 2 crawls, exit 0$/m);
    expect(result.stdout).toMatch(/^PASS tricky-tokens /m);
    expect(result.stdout).toContain("Result: every rule holds in 2 scenarios.");
    expect(result.stderr).toContain("[tricky-tokens] crawled 45 items and 45 orders");
  });

  it("names the scenario, the rule, the offending request and the fix; exit 1", async () => {
    const result = await runVerb(gateCommand, [
      ...small,
      "--scenario",
      "tricky-tokens",
      "--",
      node,
      clientPath("double-encode"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL tricky-tokens /m);
    expect(result.stdout).toMatch(/✘ FAIL\s+crawl.token-echoed\s+sent back a token that differs/);
    expect(result.stdout).toMatch(
      /request: {2}#3 GET \/v5\/organizations\/[^ ]+\?continuationToken=%252B[^ ]*\n\s+response: 400/,
    );
    expect(result.stdout).toContain("likely: it was percent-encoded twice");
    expect(result.stdout).toContain("fix: Percent-encode the token exactly once");
  });

  it("judges the traffic of a command that fails, and reports its failure", async () => {
    const result = await runVerb(gateCommand, [
      ...small,
      "--scenario",
      "uniform",
      "--reporter",
      "json",
      "--",
      node,
      clientPath("correct-then-fails"),
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.tool).toBe("assopay gate");
    const [verdict] = report.scenarios;
    expect(verdict.crawls).toBe(2);
    expect(verdict.findings.map((f: { rule: string }) => f.rule)).toEqual(["run.command-succeeds"]);
    expect(verdict.findings[0].fix).toContain("command's own output");
  });

  it("leads the verdict with a crash: the exit code and the last lines of its stderr, before the rules it left broken", async () => {
    const result = await runVerb(gateCommand, [
      ...small,
      "--scenario",
      "uniform",
      "--",
      node,
      clientPath("crash-mid-crawl"),
    ]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines.find((line) => line.startsWith("FAIL uniform"))).toMatch(/crashed \(exit 1\)$/);
    const cases = lines.filter((line) => /^ {2}[✔✘!-] /.test(line));
    expect(cases[0]).toMatch(/FAIL\s+run\.command-succeeds\s+the command crashed: it exited with code 1/);
    const failures = result.stdout.slice(result.stdout.indexOf("Failures:"));
    expect(failures.indexOf("run.command-succeeds")).toBeLessThan(
      failures.indexOf("crawl.reaches-empty-page"),
    );
    expect(failures).toMatch(/\| TypeError: Cannot read properties of undefined \(reading 'date'\)/);
  });

  it("stops a command past its time limit, with everything it started, and says so", async () => {
    const result = await runVerb(gateCommand, [
      "--timeout",
      "1",
      "--scenario",
      "uniform",
      "--reporter",
      "junit",
      "--",
      node,
      clientPath("sleeper"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('<testcase classname="assopay.gate.uniform" name="run.bounded">');
    expect(result.stdout).toContain("did not end within 1 s and was stopped");
    expect(result.stdout).toContain('name="run.traffic-seen">');
    const pid = Number(/grandchild (\d+)/.exec(result.stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await gone(pid)).toBe(true);
  });

  it("takes a running server with --upstream and its login flags; refuses --shapes beside it", async () => {
    const server = await startSandbox({ port: 0, entries: 45 });
    try {
      const c = server.credentials;
      const login = [
        ["--client-id", c.reader.clientId],
        ["--client-secret", c.reader.clientSecret],
        ["--organization", c.organizationSlug],
        ["--form-type", c.formType],
        ["--form-slug", c.formSlug],
      ].flat();
      const result = await runVerb(gateCommand, [
        "--upstream",
        server.url,
        ...login,
        "--scenario",
        "uniform",
        "--",
        node,
        clientPath("correct"),
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^PASS uniform /m);
      expect(result.stdout).toContain(`(against a running server)`);
      const shapes = await runVerb(gateCommand, [
        "--upstream",
        server.url,
        ...login,
        "--shapes",
        "document",
        "--",
        node,
      ]);
      expect(shapes.code).toBe(2);
      expect(shapes.stderr).toContain("--shapes and --upstream exclude each other");
    } finally {
      await server.close();
    }
  });

  it("refuses bad usage with exit 2", async () => {
    const noCommand = await runVerb(gateCommand, ["--scenario", "uniform"]);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toContain("no command to run");
    const badScenario = await runVerb(gateCommand, ["--scenario", "uniform,sideways", "--", node]);
    expect(badScenario.stderr).toContain('unknown scenario "sideways"');
    const both = await runVerb(gateCommand, ["--sandbox", "--cassette", "x.yaml", "--", node]);
    expect(both.stderr).toContain("--sandbox and --cassette exclude each other");
    const budget = await runVerb(gateCommand, ["--max-requests", "lots", "--", node]);
    expect(budget.stderr).toContain('--max-requests must be a whole number from 1 to 1000000, got "lots"');
    const missing = await runVerb(gateCommand, ["--scenario", "uniform", "--", "/no/such/program"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot run "/no/such/program": spawn /no/such/program ENOENT');
    const reporter = await runVerb(gateCommand, ["--reporter", "tap", "--", node]);
    expect(reporter.code).toBe(2);
    const cassette = await runVerb(gateCommand, ["--cassette", "/no/such/cassette.yaml", "--", node]);
    expect(cassette.code).toBe(2);
    expect(cassette.stderr).toMatch(
      /^error\[bad-cassette\]: \/no\/such\/cassette.yaml: cannot read the cassette/,
    );
  });
});
