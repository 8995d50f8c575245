import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";

/** What the sandbox answers Pact's verifiers: message requests (POST /) and the states the pacts name. */
describe("the sandbox as a Pact provider", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, at: "2025-06-30" as never });
  });
  afterAll(() => sandbox.close());

  const post = (path: string, body: unknown) =>
    fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const state = async (name: string, params: Record<string, unknown> = {}) =>
    (await post("/_states", { state: name, params, action: "setup" })).json() as Promise<
      Record<string, unknown>
    >;

  it("answers a message request with the notification's bytes and its signature in the metadata", async () => {
    const partner = await state("a partner with a notification URL");
    const res = await post("/", {
      description: "a Payment notification (as of 2025-06-30)",
      providerStates: [{ name: "an order is paid" }],
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(JSON.parse(body)).toMatchObject({ eventType: "Payment" });
    const metadata = JSON.parse(
      Buffer.from(res.headers.get("pact-message-metadata") ?? "", "base64").toString(),
    );
    const key = String(partner.signatureKey);
    expect(metadata).toEqual({
      contentType: "application/json",
      "x-ha-signature": createHmac("sha256", key).update(body).digest("hex"),
    });
  });

  it("answers 404 to a description no notification type has, and 400 to a bad state", async () => {
    const res = await post("/", { description: "a Refund notification", providerStates: [] });
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/No message interaction/);
    const bad = await post("/", {
      description: "a Form notification",
      providerStates: [{ name: "no such state" }],
    });
    expect(bad.status).toBe(400);
  });

  it("hands out access tokens of a role, and refuses an unknown role", async () => {
    const admin = await state("an access token", { role: "admin" });
    const reader = await state("an access token", { role: "reader" });
    const partner = (token: unknown) =>
      fetch(`${sandbox.url}/v5/partners/me`, { headers: { authorization: `Bearer ${String(token)}` } });
    expect((await partner(admin.accessToken)).status).toBe(200);
    expect((await partner(reader.accessToken)).status).toBe(200);
    const refused = await post("/_states", {
      state: "an access token",
      params: { role: "root" },
      action: "setup",
    });
    expect(refused.status).toBe(400);
  });

  it("moves its clock to the service date a pact names, and refuses a day that is not one", async () => {
    expect(await state("the service date", { day: "2024-12-15" })).toEqual({ day: "2024-12-15" });
    const clock = (await (await fetch(`${sandbox.url}/_clock`)).json()) as { day: string };
    expect(clock.day).toBe("2024-12-15");
    const refused = await post("/_states", {
      state: "the service date",
      params: { day: "15/12/2024" },
      action: "setup",
    });
    expect(refused.status).toBe(400);
  });
});
