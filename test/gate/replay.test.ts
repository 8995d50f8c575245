import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { startRecorder } from "../../proxy/index.js";
import { startSandbox } from "../../sandbox/index.js";
import { brokenRules, clientPath, contract, gateClient, verdictOf } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "assopay-gate-"));
const cassette = join(dir, "crawl.yaml");
let secret = "";

beforeAll(async () => {
  const sandbox = await startSandbox({ port: 0, entries: 45, contract, at: "2025-04-01" as IsoDay });
  const recorder = await startRecorder({ upstream: sandbox.url, cassette });
  const c = sandbox.credentials;
  secret = c.reader.clientSecret;
  await promisify(execFile)(process.execPath, [clientPath("correct")], {
    env: {
      ASSOPAY_BASE_URL: recorder.url,
      ASSOPAY_CLIENT_ID: c.reader.clientId,
      ASSOPAY_CLIENT_SECRET: secret,
      ASSOPAY_ORG: c.organizationSlug,
      ASSOPAY_FORM_TYPE: c.formType,
      ASSOPAY_FORM_SLUG: c.formSlug,
    },
  });
  await recorder.close();
  await sandbox.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("assopay gate --cassette", () => {
  it("judges a client against a replay: the scenarios re-cut the recorded pages and tokens", async () => {
    const scenarios = ["uniform", "varying-pages", "tricky-tokens", "token-expiry"] as const;
    const options = { cassettes: [cassette], at: "2025-04-01", env: { ASSOPAY_CLIENT_SECRET: secret } };
    const good = await gateClient("correct", scenarios, options);
    for (const verdict of good.scenarios) expect(verdict.findings, verdict.scenario).toEqual([]);
    expect(good.upstream).toBe("replay");
    expect(good.output).toContain("[varying-pages] crawled 45 items and 45 orders");
    const bad = await gateClient("double-encode", ["tricky-tokens"], options);
    expect(brokenRules(verdictOf(bad, "tricky-tokens"))).toEqual([
      "crawl.token-echoed",
      "run.command-succeeds",
    ]);
  });
});
