import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { startServer } from "../../core/http/server.js";
import type { RunningSandbox } from "../../sandbox/index.js";
import { refusesToken } from "../../specs/pagination/token-bound.js";
import { byId, problems, verifySandbox } from "./support/harness.js";

/**
 * A provider in front of the sandbox that refuses a token it did not give the listing with `status`;
 * `refused` gets each URL so refused.
 */
function refusingWith(status: number, refused: string[]) {
  return async (sandbox: RunningSandbox) => {
    const upstream = new URL(sandbox.url);
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = { ...req.headers, host: upstream.host, "accept-encoding": "identity" };
      const answer = await fetch(`${sandbox.url}${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers: headers as unknown as Record<string, string>,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const url = new URL(req.url ?? "/", sandbox.url);
      const foreign =
        answer.status === 400 && queryValue(url.searchParams, "continuationToken") !== undefined;
      if (foreign) refused.push(decodeURIComponent(url.pathname + url.search));
      res.writeHead(foreign ? status : answer.status, {
        "content-type": answer.headers.get("content-type") ?? "text/plain",
      });
      res.end(
        foreign
          ? JSON.stringify({ errors: [{ code: "NotFound", message: "no such page" }] })
          : await answer.text(),
      );
    });
    const running = await startServer(server, { what: "refusing provider" });
    return { url: running.url, close: () => running.close() };
  };
}

describe("pagination.token-bound: a token reused with another listing, form or date window", () => {
  it("flags a provider that serves a page for another listing's token, on its own rule", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, { fault: "foreign-token-accepted" });
    expect(problems(report).map((p) => p.slice(0, p.indexOf("[")))).toEqual(["pagination/token-bound"]);
    expect(byId(report, "pagination/token-bound")?.reason).toMatch(
      /a continuation token of v5\.\S+ crawl, sent with the listing v5\.\S+, was not refused: answered 200 with \d+ entries/,
    );
  });

  it.each([
    ["404", 404],
    ["422", 422],
  ])("passes a provider that refuses it with %s, as with the sandbox's 400", async (_, status) => {
    const refused: string[] = [];
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: refusingWith(status, refused),
    });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "pagination/token-bound")?.verdict).toBe("pass");
    // Each place was asked: another listing, another form of the organization, a date window.
    expect(refused.some((url) => url.includes("/orders?"))).toBe(true);
    expect(refused.some((url) => url.includes("/forms/") && !url.includes("/gala-annuel/"))).toBe(true);
    expect(refused.some((url) => /[?&]from=.*&to=/.test(url))).toBe(true);
  });

  it("counts a 4xx as a refusal, but not the credentials' 401, a rate limit's 429 or a server error", () => {
    expect([400, 403, 404, 409, 410, 422].every(refusesToken)).toBe(true);
    expect([200, 204, 401, 429, 500, 503].some(refusesToken)).toBe(false);
  });
});
