import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../core/http/server.js";
import { startStateServer } from "../../specs/pact/state-server.js";

let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (body: string) =>
  fetch(server?.url ?? "", { method: "POST", headers: { "content-type": "application/json" }, body });

describe("verify's own provider-state endpoint (Pact's state-change convention)", () => {
  it("answers a setup with the values, a teardown with nothing", async () => {
    const asked: unknown[] = [];
    server = await startStateServer((state, params) => {
      asked.push({ state, params });
      return { ok: true, values: { accessToken: `token-for-${String(params?.role)}` }, unknown: {} };
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const setup = await post(
      JSON.stringify({ state: "an access token", params: { role: "admin" }, action: "setup" }),
    );
    expect(setup.status).toBe(200);
    expect(await setup.json()).toEqual({ accessToken: "token-for-admin" });
    const teardown = await post(JSON.stringify({ state: "an access token", action: "teardown" }));
    expect(teardown.status).toBe(200);
    expect(await teardown.json()).toEqual({});
    expect(asked).toEqual([{ state: "an access token", params: { role: "admin" } }]);
  });

  it("refuses a state it cannot answer, and requests that are not state changes", async () => {
    server = await startStateServer(() => ({ ok: false, reason: "no admin client (--admin-client-id)" }));
    const refused = await post(JSON.stringify({ state: "an access token", params: { role: "admin" } }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "no admin client (--admin-client-id)" });
    expect((await post("not json")).status).toBe(400);
    expect((await post(JSON.stringify({ params: {} }))).status).toBe(400);
    expect((await fetch(server.url)).status).toBe(405);
  });
});
