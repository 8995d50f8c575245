import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlerFor } from "../../sandbox/router.js";
import { contract, day, type Harness, harness } from "./helpers.js";

describe("sandbox robustness", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-06-15"), entries: 20 });
  });
  afterAll(() => h.close());

  it("has a handler for every route of the catalogue", () => {
    for (const route of contract().routes.all) expect(handlerFor(route), route.id).toBeDefined();
  });

  it("answers unknown routes with a 404 problem body in the service's shape", async () => {
    for (const path of [
      "/",
      "/v5/nothing",
      "/v4/organizations/x/items",
      "/v5/organizations/%zz/items",
      "/v5/orders/abc",
    ]) {
      const response = await h.get(path);
      expect(response.status, path).toBe(404);
      const body = await response.json();
      expect(contract().schemas.validate("error", body)).toEqual([]);
    }
    const wrongMethod = await h.send("DELETE", h.formPath("items"), {});
    expect(wrongMethod.status).toBe(404);
    const unknownOrg = await h.get("/v5/organizations/nobody/items");
    expect(unknownOrg.status).toBe(404);
    // The unknown route's message names it, and no left-out reason.
    expect(JSON.stringify(await (await h.get("/v5/nothing")).json())).toContain("No route GET /v5/nothing");
  });

  it("answers a route of the provider's document it leaves out with a 404 that says so, and why", async () => {
    const asked = [
      ["POST", "/v5/directory/forms", "/v5/directory/forms"],
      ["GET", "/v5/values/organization/categories", "/v5/values/organization/categories"],
      [
        "GET",
        "/v5/organizations/amis-du-bac-a-sable/cash-out/42/export",
        "/v5/organizations/{organizationSlug}/cash-out/{cashOutId}/export",
      ],
    ] as const;
    for (const [method, path, template] of asked) {
      const response = await h.send(method, path, method === "POST" ? {} : undefined);
      expect(response.status, path).toBe(404);
      const body = await response.json();
      expect(contract().schemas.validate("error", body)).toEqual([]);
      const said = JSON.stringify(body);
      expect(said, path).toContain(
        `${method} ${template} is in the provider's document, but the sandbox leaves it out:`,
      );
      expect(said, path).toContain(
        contract()
          .leftOut.find((o) => o.path === template)
          ?.reason.slice(0, 30),
      );
    }
    // The same path with another method is an unknown route.
    const other = await h.send("PUT", "/v5/directory/forms", {});
    expect(JSON.stringify(await other.json())).toContain("No route PUT /v5/directory/forms");
  });

  it("survives malformed JSON, huge bodies, pageSize=1000, altered tokens and broken request lines", async () => {
    const broken = await h.send("PUT", "/v5/partners/me/api-notifications", '{"url": ');
    expect(broken.status).toBe(400);
    expect(contract().schemas.validate("error", await broken.json())).toEqual([]);
    const empty = await h.send("PUT", "/v5/partners/me/api-notifications", "");
    expect(empty.status).toBe(400);
    const huge = await h.send(
      "PUT",
      "/v5/partners/me/api-notifications",
      `{"url":"${"x".repeat(2_000_000)}"}`,
    );
    expect(huge.status).toBe(413);
    expect((await h.get(`${h.formPath("items")}?pageSize=1000`)).status).toBe(400);
    expect(
      (await h.get(`${h.formPath("items")}?continuationToken=${encodeURIComponent("+/+/AAAA==")}`)).status,
    ).toBe(400);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(h.url).port), "127.0.0.1", () =>
        socket.write("NOT HTTP AT ALL\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("close", () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await h.get(h.formPath("items"))).status).toBe(200);
  });
});
