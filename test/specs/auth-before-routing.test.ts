import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import type { RunReport } from "../../specs/runner/types.js";
import { problems, verifySandbox } from "./support/harness.js";

const CHECK = "rights/auth-before-routing";
const AT = "2026-01-01" as IsoDay;

function outcome(report: RunReport) {
  const found = report.outcomes.find((o) => o.id === CHECK);
  if (!found) throw new Error(`${CHECK} did not run`);
  return found;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A provider in front of the sandbox that answers unknown routes in other legal ways: a 401 with a bare
 * `Bearer realm=…` challenge and no body, a 404 as an HTML page. Everything else is forwarded.
 */
async function legalVariants(upstream: string) {
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
    }
    const answer = await fetch(`${upstream}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers,
      ...(body.length > 0 ? { body } : {}),
      redirect: "manual",
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    if (/^\/v5\/assopay-unknown-route/i.test(req.url ?? "")) {
      if (answer.status === 401) {
        res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="assopay"', "content-length": "0" }).end();
        return;
      }
      const html = "<html><body>Not found</body></html>";
      res.writeHead(answer.status, { "content-type": "text/html" }).end(html);
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name))
        out[name] = value;
    });
    res.writeHead(answer.status, out).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("rights/auth-before-routing", () => {
  it("flags a provider that looks the route up before checking the token (fault routes-before-auth)", async () => {
    const report = await verifySandbox(AT, { fault: "routes-before-auth", extra: { only: ["rights"] } });
    const found = outcome(report);
    expect(found.verdict).toBe("fail");
    expect(found.rule).toBe("auth.before-routing");
    expect(found.reason).toMatch(/answered 404, expected 401/);
    expect(found.evidence).toBeDefined();
    const others = report.outcomes.filter((o) => o.id !== CHECK && o.verdict === "fail");
    expect(others).toEqual([]);
  });

  it("passes the sandbox and legal variants: a bare challenge, an empty 401 body, an HTML 404", async () => {
    const clean = await verifySandbox(AT, { extra: { only: ["rights"] } });
    expect(outcome(clean).verdict).toBe("pass");
    const varied = await verifySandbox(AT, {
      extra: { only: ["rights"] },
      through: (sandbox) => legalVariants(sandbox.url),
    });
    expect(outcome(varied).verdict).toBe("pass");
    expect(problems(varied)).toEqual([]);
  });
});
