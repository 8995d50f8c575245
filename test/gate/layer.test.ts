import { request } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { type RunningLayer, startScenarioLayer } from "../../gate/layer/server.js";
import { type ScenarioName, scenarioByName } from "../../gate/scenarios.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { contract } from "./support.js";

interface Answer {
  status: number;
  body: { data?: unknown[]; pagination?: Record<string, unknown> };
}

/** A GET whose request target is sent byte for byte as given (no URL normalisation). */
function rawGet(base: string, target: string, authorization: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: target, headers: { authorization } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Answer["body"]) : {} });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const open: { sandbox?: RunningSandbox; layer?: RunningLayer } = {};

async function start(scenario: ScenarioName, entries = 45) {
  const sandbox = await startSandbox({ port: 0, entries, contract, at: "2025-04-01" as IsoDay });
  const layer = await startScenarioLayer({
    upstream: sandbox.url,
    scenario: scenarioByName(scenario),
    contract,
    maxRequests: 50,
    seed: "test",
    upstreamTimeoutMs: 5000,
    onBudgetSpent: () => undefined,
  });
  open.sandbox = sandbox;
  open.layer = layer;
  const c = sandbox.credentials;
  const login = async () => {
    const response = await fetch(`${layer.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: c.reader.clientId,
        client_secret: c.reader.clientSecret,
      }),
    });
    return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
  };
  const items = `/v5/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}/items`;
  return { layer, login, items };
}

afterEach(async () => {
  await open.layer?.close();
  await open.sandbox?.close();
  open.layer = undefined;
  open.sandbox = undefined;
});

const tokenOf = (answer: Answer) => answer.body.pagination?.continuationToken as string | undefined;

describe("the scenario layer", () => {
  it("hands out tricky tokens, takes them back encoded once, refuses them otherwise, and records the raw target", async () => {
    const { layer, login, items } = await start("tricky-tokens");
    const auth = await login();
    const first = await rawGet(layer.url, items, auth);
    const token = tokenOf(first) ?? "";
    for (const char of ["+", "/", "=", "%", "&", " "]) expect(token).toContain(char);
    const once = `${items}?continuationToken=${encodeURIComponent(token)}`;
    expect((await rawGet(layer.url, once, auth)).status).toBe(200);
    const twice = `${items}?continuationToken=${encodeURIComponent(encodeURIComponent(token))}`;
    expect((await rawGet(layer.url, twice, auth)).status).toBe(400);
    const exchanges = layer.exchanges();
    expect(exchanges.map((e) => e.rawUrl).slice(-2)).toEqual([once, twice]);
    expect(exchanges.at(-2)?.token?.decoded).toBe(token);
    expect(exchanges.at(-1)?.response).toMatchObject({
      status: 400,
      madeBy: "gate",
      reason: "unknown-token",
    });
  });

  it("records a request line the HTTP parser refuses (a raw space in the token)", async () => {
    const { layer, items } = await start("uniform");
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(layer.url).port), "127.0.0.1", () => {
        socket.write(`GET ${items}?continuationToken=a b HTTP/1.1\r\nhost: x\r\n\r\n`);
      });
      socket.on("data", () => socket.end());
      socket.on("close", () => resolve());
    });
    const [exchange] = layer.exchanges();
    expect(exchange).toMatchObject({ rawUrl: `${items}?continuationToken=a b`, token: { decoded: "a b" } });
    expect(exchange?.response).toMatchObject({ status: 400, reason: "malformed-request" });
  });

  it.each([
    ["final-token-echo", "echo"],
    ["final-token-absent", "absent"],
    ["uniform", "fresh"],
  ] as const)("ends the crawl of %s with the %s token", async (scenario, kind) => {
    const { layer, login, items } = await start(scenario, 15);
    const auth = await login();
    const first = await rawGet(layer.url, items, auth);
    expect(first.body.data).toHaveLength(15);
    const sent = tokenOf(first) ?? "";
    const last = await rawGet(layer.url, `${items}?continuationToken=${encodeURIComponent(sent)}`, auth);
    expect(last.body.data).toEqual([]);
    const final = tokenOf(last);
    if (kind === "echo") expect(final).toBe(sent);
    if (kind === "absent") expect(last.body.pagination).not.toHaveProperty("continuationToken");
    if (kind === "fresh") expect(final).toEqual(expect.any(String));
    if (kind === "fresh") expect(final).not.toBe(sent);
  });

  it("cuts pages to varying sizes, keeping pageSize, without losing or repeating an entry", async () => {
    const { layer, login, items } = await start("varying-pages", 45);
    const auth = await login();
    const sizes: number[] = [];
    const ids = new Set<unknown>();
    let token: string | undefined;
    for (let i = 0; i < 20; i++) {
      const answer = await rawGet(
        layer.url,
        token ? `${items}?continuationToken=${encodeURIComponent(token)}` : items,
        auth,
      );
      const data = answer.body.data ?? [];
      sizes.push(data.length);
      for (const entry of data) ids.add((entry as { id: unknown }).id);
      expect(answer.body.pagination?.pageSize).toBe(20);
      if (data.length === 0) break;
      token = tokenOf(answer);
    }
    expect(sizes).toEqual([7, 1, 12, 20, 3, 2, 0]);
    expect(ids.size).toBe(45);
  });

  it("expires the access token once mid-crawl: 401 until a fresh token, then the same continuation token works", async () => {
    const { layer, login, items } = await start("token-expiry");
    const auth = await login();
    const token = tokenOf(await rawGet(layer.url, items, auth)) ?? "";
    const next = `${items}?continuationToken=${encodeURIComponent(token)}`;
    expect((await rawGet(layer.url, next, auth)).status).toBe(401);
    expect((await rawGet(layer.url, next, auth)).status).toBe(401);
    const fresh = await login();
    expect(fresh).not.toBe(auth);
    expect((await rawGet(layer.url, next, fresh)).status).toBe(200);
    expect((await rawGet(layer.url, items, fresh)).status).toBe(200);
  });
});
