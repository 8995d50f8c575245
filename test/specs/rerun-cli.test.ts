import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCommand } from "../../cli/commands/verify.js";
import type { IsoDay } from "../../core/dates.js";
import { credentialsEnv, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { runVerifyCli, withoutProgress } from "./support/cli.js";
import { contract } from "./support/harness.js";
import { ENTRIES, recordSession } from "./support/rerun-session.js";

function env(sandbox: RunningSandbox): Record<string, string> {
  return { ASSOPAY_TARGET: sandbox.url, ...credentialsEnv(sandbox.credentials) };
}

describe("assopay verify --cassette", () => {
  let session: Awaited<ReturnType<typeof recordSession>>;
  let clean: RunningSandbox;
  let faulty: RunningSandbox;

  beforeAll(async () => {
    session = await recordSession("2025-04-01" as IsoDay);
    const base = { port: 0, at: "2025-04-01" as IsoDay, entries: ENTRIES, contract: contract() };
    clean = await startSandbox({ ...base, seed: 3 });
    faulty = await startSandbox({ ...base, seed: 3, fault: "duplicate-entries" });
  });
  afterAll(async () => {
    await clean.close();
    await faulty.close();
    await session.remove();
  });

  it("says how to re-send in --help", () => {
    expect(verifyCommand.help).toContain("--cassette FILE...");
  });

  it("exits 0 with one line per interaction when every interaction holds", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette, "--at", "2025-04-01"], env(clean));
    expect(withoutProgress(run.stderr)).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✔ pass\s+cassette\/session\.yaml#1 POST \/oauth2\/token/);
    expect(run.stdout).toMatch(/0 failed/);
  });

  it("exits 1 and names the rule when an interaction breaks one", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette, "--at", "2025-04-01"], env(faulty));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✘ FAIL\s+cassette\/session\.yaml#\d+ GET \/v5\/.*\/orders/);
    expect(run.stdout).toMatch(/rule:\s+pagination\.no-duplicates/);
  });

  it("writes the same report shape through the json and junit reporters", async () => {
    const json = await runVerifyCli(
      ["--cassette", session.cassette, "--at", "2025-04-01", "--reporter", "json"],
      env(faulty),
    );
    const report = JSON.parse(json.stdout) as { outcomes: { id: string; rule: string; verdict: string }[] };
    expect(report.outcomes.find((o) => o.verdict === "fail")?.rule).toBe("pagination.no-duplicates");
    expect(report.outcomes[0]?.id).toBe("cassette/session.yaml#1 POST /oauth2/token");
    const file = join(session.dir, "rerun.xml");
    const junit = await runVerifyCli(
      ["--cassette", session.cassette, "--at", "2025-04-01", "--reporter", "junit", "--output", file],
      env(faulty),
    );
    expect(junit.code).toBe(1);
    expect(readFileSync(file, "utf8")).toMatch(/<failure message="[^"]*" type="pagination\.no-duplicates"/);
  });

  it("re-sends against the embedded sandbox when no target is given", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette, "--at", "2025-04-01"]);
    expect(run.stdout).toMatch(/the embedded sandbox/);
    expect(run.stdout).not.toMatch(/FAIL/);
  });

  it("refuses a file that is not a cassette with its file and line and a hint (exit 2)", async () => {
    const bad = join(session.dir, "notes.yaml");
    writeFileSync(bad, "---\nformat: something-else\n...\n");
    const run = await runVerifyCli(["--cassette", bad], env(clean));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2`);
    expect(run.stderr).toMatch(/hint: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses cassettes that hold no request to re-send (exit 2)", async () => {
    const empty = join(session.dir, "header-only.yaml");
    const header = readFileSync(session.cassette, "utf8").split("\n...\n")[0];
    writeFileSync(empty, `${header}\n...\n`);
    const run = await runVerifyCli(["--cassette", empty], env(clean));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error[bad-input]: ${empty}: the cassettes hold no request`);
  });

  it("refuses --only with --cassette (exit 2)", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette, "--only", "pagination"], env(clean));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--only does not apply to --cassette/);
  });

  it("stops before re-sending when the target refuses the given client (exit 2)", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette], {
      ...env(clean),
      ASSOPAY_CLIENT_SECRET: "not-the-secret",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the target refused the reader credentials/);
    expect(run.stdout).not.toMatch(/cassette\/session\.yaml#/);
  });

  it("needs the client with a target (exit 2)", async () => {
    const run = await runVerifyCli(["--cassette", session.cassette, "--target", clean.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/needs --client-id and --client-secret/);
  });

  it("needs the admin client whole or not at all (exit 2)", async () => {
    const { ASSOPAY_ADMIN_CLIENT_ID: _, ...withoutAdminId } = env(clean);
    const run = await runVerifyCli(["--cassette", session.cassette, "--target", clean.url], withoutAdminId);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give both --admin-client-id and --admin-client-secret, or neither/);
  });
});
