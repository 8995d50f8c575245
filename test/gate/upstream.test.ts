import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { startScenarioLayer } from "../../gate/layer/server.js";
import { runGate } from "../../gate/run.js";
import { SCENARIOS, scenarioByName } from "../../gate/scenarios.js";
import { credentialsEnv, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { brokenRules, clientPath, contract, gateClient, rules, verdictOf } from "./support.js";

const HOST = "api.helloasso.com";
// Any socket or DNS lookup headed off the machine ends the command with exit 97.
const SOCKET_GUARD = join(packageRoot(), "test", "fixtures", "intercept", "socket-guard.cjs");
const guarded = { PATH: process.env.PATH, NODE_OPTIONS: `--require ${SOCKET_GUARD}` };

/** Runs the gate on an app with a hard-coded host, under the socket guard. */
async function gateApp(name: string, extra: Parameters<typeof gateClient>[2]) {
  return gateClient(name, ["uniform"], { env: guarded, timeoutSeconds: 600, ...extra });
}

describe("gate --upstream: a running server of the user's choosing behind the layer", {
  timeout: 300_000,
}, () => {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await startSandbox({ port: 0, entries: 45, contract });
  });
  afterAll(() => server.close());

  it("passes a correct client in every scenario the server can play, and leaves out the others", async () => {
    const report = await gateClient("correct", [], {
      upstream: server.url,
      env: { ...credentialsEnv(server.credentials), PATH: process.env.PATH },
    });
    expect(report.upstream).toBe("url");
    expect(report.scenarios.map((v) => v.scenario)).toEqual(
      SCENARIOS.filter((s) => s.date.kind === "given" && !s.growing).map((s) => s.name),
    );
    for (const verdict of report.scenarios) expect(verdict.findings, verdict.scenario).toEqual([]);
  });

  it("fails a buggy client on its own rule", async () => {
    const report = await gateClient("double-encode", ["tricky-tokens"], {
      upstream: server.url,
      env: credentialsEnv(server.credentials),
    });
    expect(brokenRules(verdictOf(report, "tricky-tokens"))).toEqual([
      "crawl.token-echoed",
      "run.command-succeeds",
    ]);
  });

  it("refuses, before running anything, a dated scenario, a missing login, and --cassette beside it", async () => {
    const base = { command: ["node", clientPath("correct")], upstream: server.url, contract, rules };
    const env = credentialsEnv(server.credentials);
    await expect(runGate({ ...base, env, scenarios: ["after-v3-switch-off"] })).rejects.toThrow(
      "scenario after-v3-switch-off cannot run here: a running server keeps its own date",
    );
    await expect(runGate({ ...base, env: { ASSOPAY_CLIENT_ID: "x" } })).rejects.toThrow(
      "assopay gate --upstream needs ASSOPAY_CLIENT_SECRET, ASSOPAY_ORG, ASSOPAY_FORM_TYPE, ASSOPAY_FORM_SLUG",
    );
    await expect(runGate({ ...base, env, cassettes: ["a.yaml"] })).rejects.toThrow(
      "--cassette and --upstream exclude each other",
    );
    await expect(runGate({ ...base, env, upstream: "ftp://x" })).rejects.toThrow(
      "--upstream must be an http(s) URL",
    );
  });
});

describe("gate on apps with a hard-coded host (--intercept, --shapes, --allow-host)", {
  timeout: 300_000,
}, () => {
  it("gates an app that calls https://api.helloasso.com with https.request, end to end", async () => {
    const report = await gateApp("hard-coded-https", { intercept: [HOST], shapes: "document" });
    expect(report.scenarios[0]?.findings, report.output.join("\n")).toEqual([]);
    expect(report.scenarios[0]?.requests).toBe(5);
    expect(report.output).toContain("[uniform] https.request: 45 items, 67500 cents");
  });

  it("gates an app that uses axios, through a rate limit too", async () => {
    const report = await gateClient("hard-coded-axios", ["uniform", "rate-limited"], {
      env: guarded,
      timeoutSeconds: 600,
      intercept: [HOST],
    });
    for (const verdict of report.scenarios) expect(verdict.findings, report.output.join("\n")).toEqual([]);
    expect(report.output).toContain("[rate-limited] axios: 45 items");
  });

  it("shows why each flag is needed: without --intercept the app never reaches the gate, without --shapes document it reads the seed's amounts", async () => {
    const alone = await gateApp("hard-coded-https", { shapes: "document" });
    expect(brokenRules(verdictOf(alone, "uniform"))).toEqual(["run.command-succeeds", "run.traffic-seen"]);
    expect(alone.scenarios[0]?.command.exitCode).toBe(97);
    const seed = await gateApp("hard-coded-https", { intercept: [HOST] });
    expect(brokenRules(verdictOf(seed, "uniform"))).toEqual([
      "crawl.reaches-empty-page",
      "run.command-succeeds",
    ]);
    expect(seed.output.join("\n")).toContain("is not cents");
  });

  it("answers a Host named with --allow-host (or --intercept), and refuses any other with 421", async () => {
    const sandbox = await startSandbox({ port: 0, entries: 5, contract, at: "2025-04-01" as IsoDay });
    const layer = await startScenarioLayer({
      upstream: sandbox.url,
      scenario: scenarioByName("uniform"),
      contract,
      maxRequests: 10,
      seed: "test",
      upstreamTimeoutMs: 5000,
      onBudgetSpent: () => undefined,
      allowHosts: ["api.example.test"],
    });
    try {
      const status = async (host: string) => {
        const { request } = await import("node:http");
        const url = new URL(layer.url);
        return new Promise<number | undefined>((resolve, reject) => {
          const req = request({
            host: url.hostname,
            port: url.port,
            path: "/v5/public/ping",
            headers: { host },
          });
          req.on("response", (res) => {
            res.resume();
            resolve(res.statusCode);
          });
          req.on("error", reject);
          req.end();
        });
      };
      expect(await status("api.example.test")).not.toBe(421);
      expect(await status("elsewhere.test")).toBe(421);
    } finally {
      await layer.close();
      await sandbox.close();
    }
  });
});
