import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONSUMER } from "../../contracts/pact/generate.js";
import { contractsDir } from "../../core/paths.js";
import { runCli } from "../support/run-cli.js";
import { type BrokerListener, brokerListener } from "./support/broker-listener.js";
import { runPact } from "./support/pact-binary.js";

const pactsDir = join(contractsDir(), "pacts");
const files = readdirSync(pactsDir).filter((f) => f.endsWith(".json"));
const readPact = (dir: string, file: string) =>
  JSON.parse(readFileSync(join(dir, file), "utf8")) as { interactions: { description: string }[] };

interface Publication {
  pacticipantName: string;
  pacticipantVersionNumber: string;
  branch?: string;
  contracts: { consumerName: string; providerName: string; content: string }[];
}

const publications = (broker: BrokerListener) =>
  broker.requests
    .filter((r) => r.method === "POST" && r.path === "/contracts/publish")
    .map((r) => JSON.parse(r.body) as Publication);

const decode = (content: string) =>
  JSON.parse(Buffer.from(content, "base64").toString("utf8")) as { interactions: { description: string }[] };

describe("pact broker publish (the official client) and assopay contracts publish", () => {
  let broker: BrokerListener | undefined;
  afterEach(async () => {
    await broker?.close();
    broker = undefined;
  });

  it("the whole folder is accepted as one consumer version: every interaction, descriptions unique", async () => {
    broker = await brokerListener();
    const run = await runPact([
      "broker",
      "publish",
      pactsDir,
      "--broker-base-url",
      broker.url,
      "--consumer-app-version",
      "1.2.3",
    ]);
    expect(run.code, run.output).toBe(0);
    const [sent, ...more] = publications(broker);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ pacticipantName: CONSUMER, pacticipantVersionNumber: "1.2.3" });
    const merged =
      sent?.contracts.flatMap((c) => decode(c.content).interactions.map((i) => i.description)) ?? [];
    const all = files.flatMap((f) => readPact(pactsDir, f).interactions.map((i) => i.description));
    expect(new Set(all).size).toBe(all.length);
    expect(merged.sort()).toEqual(all.sort());
  });

  it("is refused before anything is sent when two files share a description with another answer", async () => {
    broker = await brokerListener();
    const dir = mkdtempSync(join(tmpdir(), "assopay-shared-descriptions-"));
    for (const file of files.slice(-2)) {
      const text = readFileSync(join(pactsDir, file), "utf8").replace(/ \(as of \d{4}-\d{2}-\d{2}\)"/g, '"');
      writeFileSync(join(dir, file), text);
    }
    const run = await runPact(["broker", "publish", dir, "--broker-base-url", broker.url, "-a", "1.2.3"]);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/same description/);
    expect(publications(broker)).toEqual([]);
  });

  it("assopay contracts publish drives the client with the version and branch given", async () => {
    broker = await brokerListener();
    const run = await runCli([
      "contracts",
      "publish",
      "--broker-url",
      broker.url,
      "--consumer-app-version",
      "4.5.6",
      "--branch",
      "feature/x",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(publications(broker)).toMatchObject([
      { pacticipantName: CONSUMER, pacticipantVersionNumber: "4.5.6", branch: "feature/x" },
    ]);
  });

  it("assopay contracts publish: a refusing broker is exit 1; no broker URL or no pact folder is exit 2", async () => {
    broker = await brokerListener({ publishStatus: 400 });
    const refused = await runCli([
      "contracts",
      "publish",
      "--broker-url",
      broker.url,
      "--consumer-app-version",
      "1",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/nothing is known to be published/);
    expect(publications(broker)).toHaveLength(1);
    const missing = await runCli(["contracts", "publish"]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --broker-url/) });
    const empty = mkdtempSync(join(tmpdir(), "assopay-no-pacts-"));
    const none = await runCli(["contracts", "publish", "--broker-url", broker.url, "--dir", empty]);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/no pact files/) });
    expect(none.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("assopay verify --publish-results", () => {
  let broker: BrokerListener | undefined;
  afterEach(async () => {
    await broker?.close();
    broker = undefined;
  });

  const results = (listener: BrokerListener) =>
    listener.requests
      .filter((r) => r.method === "POST" && r.path.endsWith("/verification-results"))
      .map((r) => JSON.parse(r.body) as { success: boolean; providerApplicationVersion: string });

  const verifyArgs = (url: string) => [
    "verify",
    "--only",
    "pact",
    "--publish-results",
    "--broker-url",
    url,
    "--provider-version",
    "9.9.9",
    "--provider-branch",
    "main",
  ];

  it("verifies the broker's pacts with Pact's verifier and publishes the results there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "assopay-broker-pact-"));
    cpSync(join(pactsDir, files.at(-1) ?? ""), join(dir, "pact.json"));
    broker = await brokerListener({ pacts: [JSON.parse(readFileSync(join(dir, "pact.json"), "utf8"))] });
    const run = await runCli(verifyArgs(broker.url));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(broker.requests.some((r) => r.method === "POST" && /for-verification$/.test(r.path))).toBe(true);
    expect(results(broker)).toMatchObject([{ success: true, providerApplicationVersion: "9.9.9" }]);
  });

  it("publishes a failure when an interaction does not hold, and exits 1", async () => {
    const pact = JSON.parse(readFileSync(join(pactsDir, files.at(-1) ?? ""), "utf8")) as {
      interactions: { type: string; response?: { status: number } }[];
    };
    const http = pact.interactions.filter((i) => i.type === "Synchronous/HTTP");
    const one = { ...pact, interactions: [{ ...http[0], response: { ...http[0]?.response, status: 418 } }] };
    broker = await brokerListener({ pacts: [one] });
    const run = await runCli(verifyArgs(broker.url));
    expect(run.code).toBe(1);
    expect(results(broker)).toMatchObject([{ success: false, providerApplicationVersion: "9.9.9" }]);
  });

  it("fails when the broker does not take the results, though every interaction held", async () => {
    const pact = JSON.parse(readFileSync(join(pactsDir, files.at(-1) ?? ""), "utf8")) as {
      interactions: { type: string }[];
    };
    const http = pact.interactions.filter((i) => i.type === "Synchronous/HTTP").slice(0, 1);
    broker = await brokerListener({ pacts: [{ ...pact, interactions: http }], resultsStatus: 500 });
    const run = await runCli(verifyArgs(broker.url));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/did not take the results/);
    expect(results(broker).length).toBeGreaterThan(0);
  });

  it("a broker with nothing listening is exit 2 naming the broker and what failed, not a failed interaction", async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, "127.0.0.1", listening));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((done) => closed.close(done));
    const run = await runCli(verifyArgs(url));
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(`error[usage]: --broker-url ${url}: Pact's verifier could not load pacts`);
    expect(run.stderr).toMatch(/error sending request/);
    expect(run.stdout + run.stderr).not.toMatch(/failed Pact verification/);
  });

  it("needs a broker URL and a provider version, and the broker flags need --publish-results (exit 2)", async () => {
    const noVersion = await runCli(["verify", "--publish-results", "--broker-url", "http://127.0.0.1:9"]);
    expect(noVersion).toMatchObject({ code: 2, stderr: expect.stringMatching(/--provider-version/) });
    const stray = await runCli(["verify", "--broker-url", "http://127.0.0.1:9"]);
    expect(stray).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --publish-results/) });
  });

  it("contracts publish --dir with non-pact JSON is exit 2 before anything reaches the broker", async () => {
    broker = await brokerListener();
    const dir = mkdtempSync(join(tmpdir(), "assopay-not-pacts-"));
    cpSync(join(pactsDir, files[0] as string), join(dir, files[0] as string));
    writeFileSync(join(dir, "package.json"), '{ "name": "my-sdk", "version": "1.0.0" }\n');
    const run = await runCli([
      "contracts",
      "publish",
      "--broker-url",
      broker.url,
      "--consumer-app-version",
      "1",
      "--dir",
      dir,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${join(dir, "package.json")}:1: --dir ${dir}: package.json is not a pact file`,
    );
    expect(run.stderr).not.toContain("my-sdk");
    expect(broker.requests).toHaveLength(0);
  }, 120_000);
});
