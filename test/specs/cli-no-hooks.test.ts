import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxCommand } from "../../cli/commands/sandbox.js";
import { verifyCommand } from "../../cli/commands/verify.js";
import type { IsoDay } from "../../core/dates.js";
import { credentialsEnv, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import type { RunReport } from "../../specs/runner/types.js";
import { captureStream } from "../support/streams.js";
import { runVerifyCli, withoutProgress } from "./support/cli.js";
import { contract } from "./support/harness.js";
import { expectInHelp, UNREACHABLE_TARGET_ENV } from "./verify-env.js";

describe("assopay verify: the flags for a provider without our hooks", () => {
  it("documents them in --help", () => {
    const flags = ["--order-id", "--empty-form", "--unverified-org", "--receiver-url", "--receiver-port"];
    expectInHelp(verifyCommand.help, flags);
  });

  it.each([
    [["--order-id", "12"], /--order-id needs --target/],
    [["--empty-form", "Membership/adhesion-2025"], /--empty-form needs --target/],
    [["--empty-form", "a/b/c"], /--empty-form must be TYPE\/SLUG or SLUG/],
    [["--receiver-port", "70000"], /--receiver-port must be a whole number from 0 to 65535/],
    [["--receiver-url", "ftp://x"], /--receiver-url must be an http\(s\) URL/],
  ])("exits 2 on %j", async (argv, message) => {
    const target =
      argv[0] === "--order-id" || argv[1] === "Membership/adhesion-2025" ? {} : UNREACHABLE_TARGET_ENV;
    const run = await runVerifyCli(argv, target);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe("assopay verify --target against assopay sandbox --no-hooks", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 40,
      contract: contract(),
      hooks: false,
    });
  });
  afterAll(() => sandbox.close());

  it("runs without a state URL, with --empty-form, and exits 0 on a clean provider", async () => {
    const env = { ASSOPAY_TARGET: sandbox.url, ...credentialsEnv(sandbox.credentials) };
    const argv = ["--at", "2025-04-01", "--reporter", "json", "--empty-form", "Membership/adhesion-2025"];
    const run = await runVerifyCli([...argv, "--only", "rights,public-form,notifications,checkout"], env);
    expect(withoutProgress(run.stderr)).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as RunReport;
    const verdicts = Object.fromEntries(report.outcomes.map((o) => [o.id, o.verdict]));
    expect(verdicts).toMatchObject({
      "rights/order-detail-exposes-files": "pass",
      "public-form/custom-fields-and-options": "pass",
      "notifications/signature": "pass",
      "checkout/back-url": "pass",
      "checkout/window-15-minutes": "skip",
    });
    const form = report.outcomes.find((o) => o.id === "public-form/custom-fields-and-options");
    expect(form?.reason).toMatch(/^3 public forms judged/);
  });
});

describe("assopay sandbox --no-hooks", () => {
  it("announces no state URL and serves none", async () => {
    const controller = new AbortController();
    const stdout = captureStream();
    const stderr = captureStream();
    const running = sandboxCommand.run({
      argv: ["--port", "0", "--json", "--no-hooks", "--entries", "5"],
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: {},
      signal: controller.signal,
    });
    while (!stdout.text().includes("\n")) await new Promise((r) => setTimeout(r, 10));
    const info = JSON.parse(stdout.text()) as { url: string; stateUrl: string | null };
    expect(info.stateUrl).toBeNull();
    expect((await fetch(`${info.url}/_states`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await fetch(`${info.url}/_clock`)).status).toBe(404);
    controller.abort();
    expect(await running).toBe(0);
  });
});
