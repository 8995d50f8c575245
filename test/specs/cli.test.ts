import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCommand } from "../../cli/commands/verify.js";
import type { IsoDay } from "../../core/dates.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { runVerifyCli } from "./support/cli.js";
import { contract } from "./support/harness.js";
import { expectInHelp, targetEnv, UNREACHABLE_TARGET_ENV } from "./verify-env.js";

describe("assopay verify: usage", () => {
  it("documents every flag and environment variable in --help", () => {
    expectInHelp(verifyCommand.help, [
      "--target",
      "--at",
      "--client-id",
      "--client-secret",
      "--admin-client-id",
      "--admin-client-secret",
      "--organization",
      "--form-type",
      "--form-slug",
      "--state-url",
      "--only",
      "--planned",
      "--reporter",
      "--output",
      "ASSOPAY_TARGET",
      "ASSOPAY_CLIENT_ID",
      "ASSOPAY_CLIENT_SECRET",
      "ASSOPAY_ADMIN_CLIENT_ID",
      "ASSOPAY_ADMIN_CLIENT_SECRET",
      "ASSOPAY_ORG",
      "ASSOPAY_FORM_TYPE",
      "ASSOPAY_FORM_SLUG",
      "ASSOPAY_STATE_URL",
      "ASSOPAY_AT",
      "Exit codes",
    ]);
  });

  it.each([
    [
      ["--target", "http://127.0.0.1:9"],
      /needs --client-id, --client-secret, --organization, --form-type, --form-slug/,
    ],
    [
      [
        ...["--target", "http://127.0.0.1:9", "--client-id", "a", "--client-secret", "b"],
        ...["--organization", "o", "--form-type", "Event", "--form-slug", "s", "--admin-client-id", "x"],
      ],
      /give both --admin-client-id and --admin-client-secret, or neither/,
    ],
    [["--at", "2025-13-01"], /--at must be a calendar day/],
    [["--only", "nonsense"], /no group or check named "nonsense"/],
    [["--reporter", "xml"], /--reporter must be one of pretty, compact, json, junit/],
    [["--planned", "maybe"], /--planned must be one of fail, warn/],
    [["--client-id", "abc"], /--client-id needs --target/],
    [["--target", "http://127.0.0.1:9/v5"], /host root/],
    [["--bogus"], /Unknown option '--bogus'/],
  ])("exits 2 on %j", async (argv, message) => {
    const run = await runVerifyCli(argv, {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/hint:|error\[usage\]/);
  });

  it("exits 2 with a hint when the target does not answer", async () => {
    const run = await runVerifyCli([], UNREACHABLE_TARGET_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error\[unreachable\]: the target does not answer/);
    expect(run.stderr).toMatch(/hint: check --target/);
  });
});

describe("assopay verify: runs and reports", () => {
  let clean: RunningSandbox;
  let faulty: RunningSandbox;
  let removal: RunningSandbox;
  const dir = mkdtempSync(join(tmpdir(), "assopay-verify-"));

  beforeAll(async () => {
    clean = await startSandbox({ port: 0, at: "2025-04-01" as IsoDay, entries: 50, contract: contract() });
    faulty = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 50,
      fault: "token-mangled",
      contract: contract(),
    });
    removal = await startSandbox({
      port: 0,
      at: "2025-06-15" as IsoDay,
      entries: 50,
      fault: "counts-after-removal",
      contract: contract(),
    });
  });
  afterAll(async () => {
    await Promise.all([clean.close(), faulty.close(), removal.close()]);
  });

  it("starts the embedded sandbox without --target and prints JSON with --reporter json", async () => {
    const run = await runVerifyCli([
      "--at",
      "2025-04-01",
      "--only",
      "versions",
      "counts",
      "--reporter",
      "json",
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      embedded: boolean;
      at: string;
      outcomes: { id: string; verdict: string }[];
    };
    expect(report.embedded).toBe(true);
    expect(report.at).toBe("2025-04-01");
    expect(report.outcomes.map((o) => o.id)).toEqual([
      "counts/minus-one-without-withcount",
      "counts/real-with-withcount",
      "counts/absent-after-removal",
      "versions/v3-switched-off",
      "versions/v3-served-before-switch-off",
      "versions/v5-unaffected",
      "versions/deprecation-headers",
    ]);
  });

  it("reads the target from the environment and exits 0 when every rule holds", async () => {
    const run = await runVerifyCli(["--only", "pagination,rights", "--at", "2025-04-01"], targetEnv(clean));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✔ pass\s+pagination\/token-echoed/);
    expect(run.stdout).toMatch(/19 passed, 0 failed, 0 warned, 0 skipped/);
  });

  it("exits 1 on a broken rule and names the rule, the request and the offending part", async () => {
    const run = await runVerifyCli(["--only", "pagination", "--at", "2025-04-01"], targetEnv(faulty));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✘ FAIL\s+pagination\/token-echoed/);
    expect(run.stdout).toContain("Failures:");
    expect(run.stdout).toContain("rule:     pagination.token-echoed");
    expect(run.stdout).toMatch(/request: {2}GET http:\/\/127\.0\.0\.1:\d+\/v5\/.*continuationToken=/);
    expect(run.stdout).toMatch(/offending part: .*errors/);
    expect(run.stdout).not.toMatch(/Bearer eyJ[\w-]{10,}/);
  });

  it("writes JUnit XML with one test case per check to --output", async () => {
    const file = join(dir, "verify.xml");
    const run = await runVerifyCli(
      ["--only", "pagination", "--reporter", "junit", "--output", file, "--at", "2025-04-01"],
      targetEnv(faulty),
    );
    expect(run.code).toBe(1);
    const xml = readFileSync(file, "utf8");
    expect(xml.match(/<testcase /g)?.length).toBe(14);
    expect(xml).toContain('<failure message="');
    expect(xml).toContain('type="pagination.token-echoed"');
    expect(xml).toMatch(/<testsuites name="assopay verify" tests="14" failures="1"/);
    expect(run.stdout).toContain("Failures:");
  });

  it("turns a failure resting only on a planned change into a warning with --planned warn", async () => {
    const env = targetEnv(removal);
    const strict = await runVerifyCli(["--only", "counts", "--at", "2025-06-15"], env);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/✘ FAIL\s+counts\/absent-after-removal/);
    const lenient = await runVerifyCli(["--only", "counts", "--at", "2025-06-15", "--planned", "warn"], env);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/! warn\s+counts\/absent-after-removal .*planned change/);
  });

  it("exits 2 when the state URL does not answer or is not a URL", async () => {
    const down = await runVerifyCli(["--only", "versions"], {
      ...targetEnv(clean),
      ASSOPAY_STATE_URL: "http://127.0.0.1:9/_states",
    });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(
      /error\[unreachable\]: the state URL http:\/\/127\.0\.0\.1:9\/_states does not answer/,
    );
    const bad = await runVerifyCli(["--only", "versions"], {
      ...targetEnv(clean),
      ASSOPAY_STATE_URL: "nowhere",
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--state-url must be an http\(s\) URL/);
  });

  it("exits 2 when the target refuses the credentials", async () => {
    const run = await runVerifyCli(["--only", "versions"], {
      ...targetEnv(clean),
      ASSOPAY_CLIENT_SECRET: "wrong",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused the reader credentials/);
  });
});
