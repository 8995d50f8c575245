import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TimelineDate } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { gateTimelineReport } from "../../gate/report/format.js";
import { runGateAcrossDates } from "../../gate/run.js";
import { startRecorder } from "../../proxy/index.js";
import { startSandbox } from "../../sandbox/index.js";
import { brokenRules, clientPath, contract, gateClient, rules, verdictOf } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "assopay-gate-"));
const cassette = join(dir, "crawl.yaml");
let secret = "";
let readerId = "";
let adminId = "";

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
  // The admin client logs in and opens an organization_admin route: the cassette shows who is admin.
  const admin = await fetch(`${recorder.url}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: c.admin.clientId,
      client_secret: c.admin.clientSecret,
    }),
  });
  const { access_token } = (await admin.json()) as { access_token: string };
  await fetch(`${recorder.url}/v5/orders/1`, { headers: { authorization: `Bearer ${access_token}` } });
  readerId = c.reader.clientId;
  adminId = c.admin.clientId;
  await recorder.close();
  await sandbox.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("assopay gate --cassette", () => {
  it("sets every login variable docs/gate.md lists, the admin client included, from the cassette alone", async () => {
    const report = await gateClient("admin-and-reader", ["uniform"], {
      cassettes: [cassette],
      at: "2025-04-01",
      env: {},
    });
    const verdict = verdictOf(report, "uniform");
    expect(verdict.findings).toEqual([]);
    expect(report.output).toContain(`[uniform] admin ${adminId} logged in`);
    expect(readerId).not.toBe(adminId);
  });

  it("still refuses a wrong secret the caller gives: only the stand-in is swapped", async () => {
    const report = await gateClient("correct", ["uniform"], {
      cassettes: [cassette],
      at: "2025-04-01",
      env: { ASSOPAY_CLIENT_SECRET: "not-the-recorded-secret" },
    });
    expect(brokenRules(verdictOf(report, "uniform"))).toContain("run.command-succeeds");
  });

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

  it("across dates, runs the command once per scenario against the replay and judges its traffic by each date's rules", async () => {
    const runs: string[] = [];
    const dates = [
      { day: "2025-06-29", label: "day before v3-switch-off" },
      { day: "2025-06-30", label: "v3-switch-off" },
    ] as TimelineDate[];
    const timeline = await runGateAcrossDates(
      {
        command: [process.execPath, clientPath("correct")],
        cassettes: [cassette],
        scenarios: ["uniform", "varying-pages"],
        at: "2025-04-01",
        env: { ASSOPAY_CLIENT_SECRET: secret },
        contract,
        rules,
        onOutput: (line, scenario) => runs.push(`[${scenario}] ${line}`),
      },
      dates,
    );
    // One run of the command per scenario, whatever the number of dates.
    expect(runs.filter((line) => line.includes("crawled 45 items"))).toHaveLength(2);
    expect(timeline.basis).toBe("one-behaviour-each-date-rules");
    const report = gateTimelineReport(timeline, rules, contract.timeline);
    expect(report.passed).toBe(true);
    const v3 = report.matrix?.rows.find((r) => r.rule === "versions.no-v3-after-switch-off");
    expect(v3?.cells.map((c) => c.cell)).toEqual(["not-in-force", "pass"]);
    for (const [i, date] of dates.entries()) {
      const single = await gateClient("correct", ["uniform", "varying-pages"], {
        cassettes: [cassette],
        at: date.day,
        env: { ASSOPAY_CLIENT_SECRET: secret },
      });
      const across = timeline.runs[i]?.report;
      expect(across?.scenarios.map((v) => v.findings)).toEqual(single.scenarios.map((v) => v.findings));
    }
  });
});
