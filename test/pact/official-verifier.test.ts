import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER } from "../../contracts/pact/generate.js";
import { contractsDir } from "../../core/paths.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { runPact } from "./support/pact-binary.js";

const pactsDir = join(contractsDir(), "pacts");
const files = readdirSync(pactsDir).filter((f) => f.endsWith(".json"));
const descriptions = (file: string) =>
  (
    JSON.parse(readFileSync(join(pactsDir, file), "utf8")) as {
      interactions: { description: string; type: string }[];
    }
  ).interactions;

interface Report {
  interactionResults: { description: string; result: string }[];
}

/** `pact verifier` with standard flags only: the pacts, the provider's address, its state URL. */
async function verify(
  sandbox: RunningSandbox,
  source: string[],
): Promise<{ code: number | null; report: Report; output: string }> {
  const out = join(mkdtempSync(join(tmpdir(), "assopay-pact-report-")), "report.json");
  const url = new URL(sandbox.url);
  if (sandbox.stateUrl === undefined) throw new Error("the sandbox runs without its hooks: no state URL");
  const run = await runPact([
    "verifier",
    ...source,
    "--hostname",
    url.hostname,
    "--port",
    url.port,
    "--state-change-url",
    sandbox.stateUrl,
    "--provider-name",
    PROVIDER,
    "--no-colour",
    "--json",
    out,
  ]);
  return { code: run.code, output: run.output, report: JSON.parse(readFileSync(out, "utf8")) as Report };
}

describe("the official Pact verifier (pact verifier) against the sandbox", () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it("verifies every interaction of every file, messages included, with standard flags only", async () => {
    sandbox = await startSandbox({ port: 0 });
    const { code, report, output } = await verify(sandbox, ["--dir", pactsDir]);
    const expected = files.flatMap(descriptions);
    expect(code, output.slice(-3000)).toBe(0);
    expect(report.interactionResults.filter((r) => r.result !== "OK")).toEqual([]);
    expect(report.interactionResults.map((r) => r.description).sort()).toEqual(
      expected.map((i) => i.description).sort(),
    );
    const messages = expected.filter((i) => i.type === "Asynchronous/Messages");
    expect(messages.length).toBeGreaterThanOrEqual(6 * files.length);
    expect(output).toMatch(/"x-ha-signature" with value "[0-9a-f]{64}" \(OK\)/);
  });

  it("fails the interactions a broken provider breaks: notifications in another envelope", async () => {
    sandbox = await startSandbox({ port: 0, fault: "bad-notification-envelope" });
    const file = files.at(-1) ?? "";
    const { code, report } = await verify(sandbox, ["--file", join(pactsDir, file)]);
    expect(code).not.toBe(0);
    const failed = report.interactionResults.filter((r) => r.result !== "OK").map((r) => r.description);
    const messages = descriptions(file).filter((i) => i.type === "Asynchronous/Messages");
    expect(failed.sort()).toEqual(messages.map((m) => m.description).sort());
  });
});
