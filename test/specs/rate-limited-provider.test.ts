import { createServer, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { startServer } from "../../core/http/server.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { runCli } from "../support/run-cli.js";
import { byId, contract, problems, sandboxInput } from "./support/harness.js";

const AT = "2025-04-01" as IsoDay;

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A provider in front of the sandbox with the service's kind of rate limit: every ninth call, whoever
 * makes it (verify, its token requests, its provider states, Pact's verifier), is answered 429 and goes no
 * further. One refusal in ten asks for the service's `Retry-After: 1`, the rest for `Retry-After: 0`: what
 * this file proves is that every kind of call is asked again, and a second's wait on each of some 300
 * refusals made it the suite's longest file (316 s). test/specs/rate-limit.test.ts times the waits.
 */
async function rateLimited(upstream: string) {
  let calls = 0;
  /** The number of each call answered 429. */
  const refused: number[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      calls++;
      if (calls % 9 === 0) {
        refused.push(calls);
        const wait = refused.length % 10 === 1 ? "1" : "0";
        res.writeHead(429, { "retry-after": wait, "content-type": "application/json" });
        res.end('{"errors":[{"code":"TooManyRequests","message":"Too many requests"}]}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (name !== "host" && name !== "connection" && value !== undefined) headers[name] = String(value);
      }
      const answer = await fetch(`${upstream}${req.url}`, {
        method: req.method ?? "GET",
        headers: { ...headers, "accept-encoding": "identity" },
        redirect: "manual",
        ...(body.length > 0 ? { body } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection")
          out[name] = value;
      });
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  const running = await startServer(server, { what: "a rate-limited provider" });
  return { url: running.url, refused, calls: () => calls, close: () => running.close() };
}

describe("a provider with a rate limit", () => {
  // The two runs side by side: each spends much of its time waiting out the 429s' Retry-After.
  it.concurrent.each([
    ["with provider states", true],
    ["without hooks", false],
  ])(
    "passes every check, the Pact step included, answering every ninth call 429 (%s)",
    async (_, hooks) => {
      const sandbox = await startSandbox({ port: 0, at: AT, entries: 50, contract: contract(), hooks });
      const front = await rateLimited(sandbox.url);
      try {
        const input = sandboxInput(sandbox, AT, {
          target: front.url,
          stateUrl: hooks ? `${front.url}/_states` : undefined,
          only: [],
        });
        // The calls made by the time each check ended: the Pact step's are those after the check before it.
        const callsAt = new Map<string, number>();
        const report = await runVerify(resolveOptions(input), allChecks(), {
          contract: contract(),
          onOutcome: (outcome) => callsAt.set(outcome.id, front.calls()),
        });
        expect(problems(report)).toEqual([]);
        expect(byId(report, "pact/verify")?.verdict, byId(report, "pact/verify")?.reason).toBe("pass");
        // The limit was met all along the run, and while the Pact step ran.
        expect(front.refused.length).toBeGreaterThan(10);
        const ids = report.outcomes.map((o) => o.id);
        const before = callsAt.get(ids[ids.indexOf("pact/verify") - 1] ?? "") ?? 0;
        const during = front.refused.filter((n) => n > before && n <= (callsAt.get("pact/verify") ?? 0));
        expect(during.length).toBeGreaterThan(2);
      } finally {
        await front.close();
        await sandbox.close();
      }
    },
    1_200_000,
  );

  it("ends the run with a usage-style error, not a verdict, when the 429s never stop", async () => {
    const server = createServer((_, res) => {
      res.writeHead(429, { "retry-after": "0" }).end();
    });
    const running = await startServer(server, { what: "a provider refusing everything" });
    try {
      const input = {
        target: running.url,
        at: AT,
        reader: { clientId: "c", clientSecret: "s" },
        organizationSlug: "o",
        formType: "Event",
        formSlug: "f",
      };
      const run = runVerify(resolveOptions(input), allChecks(), { contract: contract() });
      await expect(run).rejects.toMatchObject({ code: "rate-limited", exitCode: 2 });
      await expect(run).rejects.toThrow(/still answered 429 Too Many Requests after 5 waits/);
    } finally {
      await running.close();
    }
  });

  it.each([["0"], ["four"], ["-2"]])("--concurrency %s is a usage error with a hint", async (value) => {
    const result = await runCli(["verify", `--concurrency=${value}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--concurrency must be a whole number above 0, got "${value}"`);
    expect(result.stderr).toContain("hint: for example --concurrency 4");
    expect((await runCli(["verify", "--help"])).stdout).toMatch(/--concurrency N/);
  });
});
