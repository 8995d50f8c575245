import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness } from "./helpers.js";

interface CustomField {
  id: number;
  type: string;
  name?: string;
  label?: string;
  answer?: string;
}

describe("sandbox resources", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 30 });
  });
  afterAll(() => h.close());

  it("serves the public form with customFields (one of type File) and extraOptions before any order", async () => {
    const state = await h.state("a form with custom fields and options and no order");
    const items = await h.json<{ data: unknown[] }>(
      `/v5/organizations/${state.organizationSlug}/forms/${state.formType}/${state.formSlug}/items`,
    );
    expect(items.body.data).toEqual([]);
    const { status, body } = await h.json<{
      customFields: CustomField[];
      extraOptions: unknown[];
      tiers: { customFields: CustomField[] }[];
    }>(String(state.publicFormPath), "reader");
    expect(status).toBe(200);
    expect(contract().schemas.validate("public-form", body)).toEqual([]);
    expect(body.customFields.some((f) => f.type === "File")).toBe(true);
    expect(body.extraOptions.length).toBeGreaterThan(0);
    expect(body.tiers[0]?.customFields.some((f) => f.type === "File")).toBe(true);
    const missing = await h.get(`/v5/organizations/${state.organizationSlug}/forms/Event/nope/public`);
    expect(missing.status).toBe(404);
  });

  it("gives the URL of each attached file in order detail, downloadable with organization_admin only", async () => {
    const state = await h.state("an order with an attached file");
    const { status, body } = await h.json<{ items: { customFields: CustomField[] }[] }>(
      String(state.orderDetailPath),
    );
    expect(status).toBe(200);
    expect(contract().schemas.validate("order-detail", body)).toEqual([]);
    const file = body.items[0]?.customFields.find((f) => f.type === "File");
    expect(file?.answer).toBe(state.fileUrl);
    const url = String(file?.answer).slice(h.url.length);
    const download = await h.get(url, "admin");
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await h.get(url, "none")).status).toBe(401);
    expect((await h.get(url, "reader")).status).toBe(403);
    expect((await h.get(`${url}9`, "admin")).status).toBe(404);
  });

  it("lists orders and payments that validate, and seeded orders carry files too", async () => {
    await h.send("POST", "/_states", { action: "teardown" }, "none");
    const orders = await h.json<{ data: { id: number }[] }>(`${h.formPath("orders")}?pageSize=30`);
    for (const order of orders.body.data) expect(contract().schemas.validate("order", order)).toEqual([]);
    const payments = await h.json<{ data: unknown[] }>(`${h.formPath("payments")}?pageSize=30`);
    for (const payment of payments.body.data)
      expect(contract().schemas.validate("payment", payment)).toEqual([]);
    let withFile = 0;
    for (const { id } of orders.body.data) {
      const detail = await h.json<{ items: { customFields: CustomField[] }[] }>(`/v5/orders/${id}`);
      expect(contract().schemas.validate("order-detail", detail.body)).toEqual([]);
      if (detail.body.items[0]?.customFields.some((f) => f.type === "File")) withFile++;
    }
    expect(withFile).toBe(3);
    expect((await h.get("/v5/orders/12")).status).toBe(404);
  });

  it("writes dates like the service: 7 fraction digits at most and a Paris offset", async () => {
    const orders = await h.json<{ data: { date: string }[] }>(`${h.formPath("orders")}?pageSize=30`);
    const offsets = new Set(orders.body.data.map((o) => o.date.slice(-6)));
    expect([...offsets].sort()).toEqual(["+01:00", "+02:00"]);
    for (const { date } of orders.body.data)
      expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{1,7}\+0[12]:00$/);
  });

  it("registers notification URLs and shows each signing key in partner information", async () => {
    const global = await h.send("PUT", "/v5/partners/me/api-notifications", {
      url: "https://example.org/hook",
    });
    expect(global.status).toBe(200);
    const registered = await global.json();
    expect(contract().schemas.validate("notification-url", registered)).toEqual([]);
    const scoped = await h.send(
      "PUT",
      `/v5/partners/me/api-notifications/organizations/${h.sandbox.credentials.organizationSlug}`,
      { url: "https://example.org/orders", notificationType: "Order" },
    );
    expect(scoped.status).toBe(200);
    const partner = await h.json<{ urlNotificationList: { url: string; signatureKey: string }[] }>(
      "/v5/partners/me",
      "reader",
    );
    expect(contract().schemas.validate("partner", partner.body)).toEqual([]);
    expect(partner.body.urlNotificationList.map((u) => u.url)).toEqual([
      "https://example.org/hook",
      "https://example.org/orders",
    ]);
    expect(partner.body.urlNotificationList[0]?.signatureKey).toBe(
      (registered as { signatureKey: string }).signatureKey,
    );
    const bad = await h.send("PUT", "/v5/partners/me/api-notifications", {
      url: "ftp://x",
      notificationType: "Nope",
    });
    expect(bad.status).toBe(400);
    expect(contract().schemas.validate("error", await bad.json())).toEqual([]);
    const badType = await h.send("PUT", "/v5/partners/me/api-notifications", {
      url: "https://x.org",
      notificationType: "Nope",
    });
    expect(badType.status).toBe(400);
    await h.send("POST", "/_states", { action: "teardown" }, "none");
    expect(
      (await h.json<{ urlNotificationList: unknown[] }>("/v5/partners/me")).body.urlNotificationList,
    ).toEqual([]);
  });
});
