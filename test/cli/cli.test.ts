import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot, packageVersion } from "../../core/paths.js";
import { runCli } from "../support/run-cli.js";

describe("assopay", () => {
  it("--help lists every verb", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    for (const verb of ["verify", "sandbox", "record", "replay", "gate", "notify", "contracts"])
      expect(result.stdout).toMatch(new RegExp(`^  ${verb} `, "m"));
  });

  it("--version prints the package version", async () => {
    expect((await runCli(["--version"])).stdout).toBe(`${packageVersion()}\n`);
  });

  it("an unknown verb is a usage error with a suggestion, exit 2", async () => {
    const result = await runCli(["verfy"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error[usage]: unknown verb "verfy"\nhint: did you mean verify?\n');
  });

  it("every verb answers --help", async () => {
    const verbs = (await runCli(["--help"])).stdout.match(/^ {2}([a-z]+) /gm)?.map((v) => v.trim()) ?? [];
    expect(verbs.length).toBeGreaterThan(5);
    for (const verb of verbs) {
      const result = await runCli([verb, "--help"]);
      expect(result.code, verb).toBe(0);
      expect(result.stdout, verb).toContain(`assopay ${verb}`);
    }
  });

  it("--help after -- belongs to the command a verb runs, not to the verb", async () => {
    const result = await runCli(["contracts", "--", "--help"]);
    expect(result.stdout).not.toContain("Usage: assopay contracts");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("assopay contracts: Unexpected argument '--help'");
  });

  it("an unknown flag is a usage error naming the verb, exit 2", async () => {
    const result = await runCli(["contracts", "--frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error\[usage\]: assopay contracts: Unknown option '--frobnicate'/);
    expect(result.stderr).toContain("hint: run 'assopay contracts --help'");
  });

  it("a bad --at is a usage error with an example", async () => {
    const result = await runCli(["contracts", "--check", "--at", "2025-13-01"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--at must be a calendar day written YYYY-MM-DD, got "2025-13-01"');
  });

  it("the installed entry point runs as a process and returns the exit code", () => {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", join(packageRoot(), "cli", "bin.ts"), "contracts", "--check"],
      {
        cwd: packageRoot(),
        encoding: "utf8",
      },
    );
    expect(run.stdout).toContain("Pact files in");
    expect(run.status).toBe(0);
  });
});
