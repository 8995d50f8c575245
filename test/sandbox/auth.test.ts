import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness } from "./helpers.js";

const form = (values: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(values),
});

describe("sandbox authentication", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-06-15"), entries: 10, tokenTtlSeconds: 60 });
  });
  afterAll(() => h.close());

  it("issues tokens for client_credentials with the secret in the body or in HTTP Basic", async () => {
    const { admin } = h.sandbox.credentials;
    const body = await fetch(
      `${h.url}/oauth2/token`,
      form({
        grant_type: "client_credentials",
        client_id: admin.clientId,
        client_secret: admin.clientSecret,
      }),
    );
    expect(body.status).toBe(200);
    const token = await body.json();
    expect(contract().schemas.validate("token", token)).toEqual([]);
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 60 });
    const basic = await fetch(`${h.url}/oauth2/token`, {
      ...form({ grant_type: "client_credentials" }),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${admin.clientId}:${admin.clientSecret}`).toString("base64")}`,
      },
    });
    expect(basic.status).toBe(200);
  });

  it("refreshes a token once, and refuses a used or unknown refresh token", async () => {
    const { reader } = h.sandbox.credentials;
    const first = (await (
      await fetch(
        `${h.url}/oauth2/token`,
        form({
          grant_type: "client_credentials",
          client_id: reader.clientId,
          client_secret: reader.clientSecret,
        }),
      )
    ).json()) as { refresh_token: string; access_token: string };
    const refreshed = await fetch(
      `${h.url}/oauth2/token`,
      form({ grant_type: "refresh_token", client_id: reader.clientId, refresh_token: first.refresh_token }),
    );
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string };
    expect(next.access_token).not.toBe(first.access_token);
    const again = await fetch(
      `${h.url}/oauth2/token`,
      form({ grant_type: "refresh_token", refresh_token: first.refresh_token }),
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("answers bad token requests with OAuth errors", async () => {
    const cases: [RequestInit, number, string][] = [
      [
        form({ grant_type: "client_credentials", client_id: "assopay-admin", client_secret: "nope" }),
        401,
        "invalid_client",
      ],
      [form({ grant_type: "client_credentials" }), 400, "invalid_request"],
      [form({ grant_type: "password" }), 400, "unsupported_grant_type"],
      [form({}), 400, "invalid_request"],
      [
        { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
        400,
        "invalid_request",
      ],
    ];
    for (const [init, status, error] of cases) {
      const response = await fetch(`${h.url}/oauth2/token`, init);
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body).toMatchObject({ error });
      expect(contract().schemas.validate("error", body)).toEqual([]);
    }
  });

  it("refuses a missing, invalid or 'undefined' token with 401 and a token without the right with 403", async () => {
    const path = h.formPath("items");
    expect((await h.get(path, "none")).status).toBe(401);
    for (const header of ["Bearer undefined", "Bearer abc.def.ghi", "Basic Zm9vOmJhcg=="]) {
      const response = await fetch(`${h.url}${path}`, { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(contract().schemas.validate("error", await response.json())).toEqual([]);
    }
    expect((await h.get(path, "reader")).status).toBe(200);
    const order = await h.state("an order with an attached file");
    const forbidden = await h.get(String(order.orderDetailPath), "reader");
    expect(forbidden.status).toBe(403);
    const body = (await forbidden.json()) as { errors: { message: string }[] };
    expect(body.errors[0]?.message).toMatch(/insufficient Privileges.*organization_admin/);
    expect((await h.get(String(order.orderDetailPath), "admin")).status).toBe(200);
  });

  it("checks the bearer before the route under /v5: 401 with WWW-Authenticate on any path without a valid token", async () => {
    const unknown = ["/v5/nothing", "/v5/organizations/nobody/anything", "/V5/Orders/abc", "/v5"];
    for (const path of unknown) {
      for (const header of [undefined, "Bearer undefined", "Bearer abc.def.ghi", ""]) {
        const response = await fetch(`${h.url}${path}`, {
          headers: header === undefined ? {} : { authorization: header },
        });
        expect(response.status, `${path} with ${String(header)}`).toBe(401);
        expect(response.headers.get("www-authenticate"), path).toMatch(/^Bearer /);
        expect(contract().schemas.validate("error", await response.json())).toEqual([]);
      }
    }
    const wrongMethod = await fetch(`${h.url}${h.formPath("items")}`, {
      method: "DELETE",
      headers: { authorization: "Bearer undefined" },
    });
    expect(wrongMethod.status).toBe(401);
  });

  it("answers 404 for an unknown /v5 route only to a valid token, and 404 outside /v5 without one", async () => {
    for (const path of ["/v5/nothing", "/v5/organizations/nobody/anything", "/V5/Nothing/abc"]) {
      for (const role of ["reader", "admin"] as const) {
        const response = await h.get(path, role);
        expect(response.status, `${path} as ${role}`).toBe(404);
        expect(response.headers.get("www-authenticate")).toBeNull();
      }
    }
    for (const path of ["/", "/v4/organizations/x/items", "/v55/x"]) {
      expect((await h.get(path, "none")).status, path).toBe(404);
    }
    const token = await fetch(`${h.url}/oauth2/token`, form({ grant_type: "password" }));
    expect(token.status).toBe(400);
  });

  it("lets access tokens expire on the sandbox clock", async () => {
    const expiring = await harness({ at: day("2025-06-15"), entries: 3, tokenTtlSeconds: 60 });
    try {
      expect((await expiring.get(expiring.formPath("items"))).status).toBe(200);
      await expiring.clock({ advanceSeconds: 61 });
      const expired = await expiring.get(expiring.formPath("items"));
      expect(expired.status).toBe(401);
      expect(((await expired.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(
        /expired/,
      );
    } finally {
      await expiring.close();
    }
  });
});
