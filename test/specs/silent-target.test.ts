import { execFile } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCommand } from "../../cli/commands/verify.js";
import type { IsoDay } from "../../core/dates.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import type { SpecCheck } from "../../specs/runner/verdicts.js";
import { runVerifyCli } from "./support/cli.js";
import { contract, sandboxInput } from "./support/harness.js";

const probe = join(import.meta.dirname, "fixtures", "silent-fetch.ts");

async function runProbe(mode: "silent" | "stalled-body") {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--import", "tsx", probe, mode],
    { timeout: 300_000 },
  );
  return JSON.parse(stdout.trim()) as {
    outcome: string;
    ms: number;
    message?: string;
    timedOut?: boolean;
    gc?: boolean;
  };
}

describe("verify bounds every request by a timer it owns", () => {
  it("gives up on a listener that never answers, even while garbage collections run", async () => {
    const result = await runProbe("silent");
    expect(result.gc).toBe(true);
    expect(result.outcome).toBe("failed");
    expect(result.timedOut).toBe(true);
    expect(result.message).toMatch(/no complete answer within 0\.8 s \(--request-timeout\)/);
    expect(result.ms).toBeGreaterThanOrEqual(700);
  });

  it("gives up on an answer whose body never ends", async () => {
    const result = await runProbe("stalled-body");
    expect(result.outcome).toBe("failed");
    expect(result.timedOut).toBe(true);
  });
});

describe("assopay verify against a silent target", () => {
  let server: Server;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });

  const target = () => [
    "--target",
    url,
    "--client-id",
    "reader",
    "--client-secret",
    "secret",
    "--organization",
    "org",
    "--form-type",
    "Event",
    "--form-slug",
    "gala",
  ];

  it("fails within --request-timeout with a sentence that says so, and a hint", async () => {
    // The target never answers: without the limit, the run would never end.
    const run = await runVerifyCli([...target(), "--request-timeout", "1"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /the target does not answer: no answer from .*\/oauth2\/token: no complete answer within 1 s/,
    );
    expect(run.stderr).toMatch(/hint: the target took the connection but sent no answer/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([["0"], ["-1"], ["soon"], [""]])("refuses --request-timeout %j with exit 2", async (value) => {
    const run = await runVerifyCli([...target(), `--request-timeout=${value}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--request-timeout must be a number of seconds above 0/);
  });
});

describe("verify --timeout bounds the whole run", () => {
  const at = "2026-01-01" as IsoDay;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, at, entries: 10, contract: contract() });
  });
  afterAll(() => sandbox.close());

  /** A check that waits `ms` (or until the run is aborted), then passes. */
  const slow = (id: string, ms: number): SpecCheck => ({
    id,
    group: "versions",
    rule: "versions.v5-unaffected",
    title: `waits ${ms} ms`,
    run: (ctx) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ verdict: "pass", reason: "waited" }), ms);
        ctx.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve({ verdict: "fail", reason: "aborted" });
        });
      }),
  });

  const run = (runTimeoutMs: number, secondMs = 10_000) =>
    runVerify(
      resolveOptions(sandboxInput(sandbox, at, { only: [], runTimeoutMs })),
      [slow("versions/first", 50), slow("versions/second", secondMs), slow("versions/third", 50)],
      { contract: contract() },
    );

  it("stops the check under way and reports the ones left unrun as errors that say why", async () => {
    // A limit that logging in fits in on a loaded machine, and a check that would wait an hour.
    const report = await run(20_000, 3_600_000);
    // The first check may or may not fit, depending on how long logging in took on a loaded machine;
    // the 10-second one never does, and the one after it is never run.
    expect(report.outcomes).toHaveLength(3);
    expect(report.outcomes[1]?.verdict).not.toBe("pass");
    expect(report.outcomes[2]).toMatchObject({ id: "versions/third", verdict: "error" });
    expect(report.outcomes[2]?.reason).toMatch(
      /^not run: the whole run's time limit \(--timeout 20 s\) ran out first; raise --timeout/,
    );
  });

  it("leaves a run that fits within its limit alone", async () => {
    const report = await run(60_000, 200);
    expect(report.outcomes.map((o) => o.verdict)).toEqual(["pass", "pass", "pass"]);
  });

  it("is a flag of the command line", () => {
    expect(verifyCommand.help).toMatch(/--timeout SECONDS/);
    expect(verifyCommand.help).toMatch(/--request-timeout SECONDS/);
  });
});
