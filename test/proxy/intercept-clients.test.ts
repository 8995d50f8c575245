import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRELOAD, perTest, quietEnvironment, run, SOCKET_GUARD } from "./support/intercept.js";

const HOST = "api.helloasso.com";
const OTHER_CLIENTS = join(import.meta.dirname, "..", "fixtures", "intercept", "other-clients.mjs");
const { upstream } = perTest("assopay-intercept-clients-");

interface Outcome {
  code: number;
  stderr: string;
  result?: { status?: number; body?: string; error?: string; code?: string; connected?: boolean };
}

/** One route of `other-clients.mjs` under the socket guard, with the preload pointed at `target` or without. */
async function client(route: string, target: string | undefined): Promise<Outcome> {
  const env = {
    ...quietEnvironment(),
    ASSOPAY_INTERCEPT_HOSTS: target === undefined ? undefined : HOST,
    ASSOPAY_INTERCEPT_TARGET: target,
  };
  const preload = target === undefined ? [] : ["--import", PRELOAD];
  const args = ["--import", "tsx", "--import", SOCKET_GUARD, ...preload, OTHER_CLIENTS, route];
  try {
    const { stdout, stderr } = await run(process.execPath, args, env);
    return { code: 0, stderr, result: JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const REFUSED = ["undici-pool", "http2", "tls", "net"];

describe("the preload and the Node clients that do not go through fetch's global dispatcher", () => {
  it("without the preload, each route heads for the live host (the socket guard stops it: exit 97)", async () => {
    for (const route of ["fetch-dispatcher", ...REFUSED]) {
      const outcome = await client(route, undefined);
      expect(outcome.code, route).toBe(97);
      expect(outcome.stderr, route).toMatch(
        new RegExp(`socket-guard: refused a (connection to|DNS lookup of) ${HOST}`),
      );
    }
  });

  it("fetch with its own undici Agent is caught: recorded through the target, the origin meant kept", async () => {
    const target = await upstream();
    const outcome = await client("fetch-dispatcher", target.url);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.result?.status).toBe(200);
    expect(target.seen.map((s) => [s.path, s.intercepted])).toEqual([
      ["/v5/partners/me?route=agent", `https://${HOST}`],
    ]);
  });

  it("an undici Pool, http2.connect, tls.connect and net.connect are refused loudly, naming the host", async () => {
    const target = await upstream();
    for (const route of REFUSED) {
      const outcome = await client(route, target.url);
      expect(outcome.code, `${route}: ${outcome.stderr}`).toBe(0);
      expect(outcome.result?.error, route).toMatch(
        new RegExp(`assopay-contract/intercept: refused a connection to ${HOST}:(443|80)`),
      );
      expect(outcome.stderr, route).toContain(`refused a connection to ${HOST}`);
      expect(outcome.stderr, route).not.toContain("socket-guard");
    }
    expect(target.seen).toEqual([]);
  });
});
