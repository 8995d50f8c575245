import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { docExample } from "../support/data-example.js";
import { documentProperties, publishedDocument } from "../support/reference.js";
import { contract, day, type Harness, harness } from "./helpers.js";

interface Answer {
  name: string;
  type: string;
  answer: string;
}

describe("sandbox --data: the example of docs/sandbox.md", () => {
  let h: Harness;
  const base = "/v5/organizations/club-des-lecteurs/forms/Membership/adhesion-2025";
  beforeAll(async () => {
    const { text, file } = docExample();
    const data = buildSandboxData(parseDataFile(text, file), 1);
    h = await harness({ at: day("2025-07-01"), data });
  });
  afterAll(() => h.close());

  it("announces the declared form and serves the declared organization beside the ready-made one", async () => {
    expect(h.sandbox.credentials).toMatchObject({
      organizationSlug: "club-des-lecteurs",
      formType: "Membership",
      formSlug: "adhesion-2025",
    });
    const organizations = await h.json<{ organizationSlug: string; updateDate: string; city: string }[]>(
      "/v5/users/me/organizations",
    );
    const club = organizations.body.find((o) => o.organizationSlug === "club-des-lecteurs");
    expect(club?.city).toBe("Lyon");
    expect(club?.updateDate).toMatch(/^2025-03-02T10:15:00\.\d+\+01:00$/);
    expect(organizations.body.map((o) => o.organizationSlug)).toContain("amis-du-bac-a-sable");
  });

  it("carries the TextInput field Société and the File field, answered on every entry of the items listing", async () => {
    const entries: { id: number; order: { id: number }; customFields: Answer[]; tierId: number }[] = [];
    let path = `${base}/items?pageSize=7`;
    for (let page = 0; page < 20; page++) {
      const { status, body } = await h.json<{
        data: typeof entries;
        pagination: { continuationToken?: string };
      }>(path);
      expect(status).toBe(200);
      if (body.data.length === 0) break;
      entries.push(...body.data);
      path = `${base}/items?pageSize=7&continuationToken=${encodeURIComponent(body.pagination.continuationToken ?? "")}`;
    }
    expect(entries).toHaveLength(45);
    for (const entry of entries) {
      const societe = entry.customFields.find((f) => f.name === "Société");
      expect(societe).toMatchObject({ type: "TextInput" });
      expect(["Acme", "Globex", "Initech"]).toContain(societe?.answer);
      const file = entry.customFields.find((f) => f.name === "Justificatif");
      expect(file?.type).toBe("File");
      expect(file?.answer).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v5\/orders\/\d+\/files\/\d+$/);
    }
    expect(new Set(entries.map((e) => e.tierId)).size).toBe(2);
    const first = entries[0];
    if (!first) throw new Error("no entry");
    const order = await h.json<{ items: { customFields: Answer[] }[] }>(`/v5/orders/${first.order.id}`);
    expect(order.status).toBe(200);
    const fields = order.body.items[0]?.customFields ?? [];
    expect(fields.find((f) => f.name === "Société")?.answer).toBeTruthy();
    const fileUrl = fields.find((f) => f.name === "Justificatif")?.answer ?? "";
    const file = await h.get(new URL(fileUrl).pathname);
    expect(file.status).toBe(200);
    expect((await file.text()).startsWith("%PDF")).toBe(true);
  });

  it("shows both fields on the public form, and its two tiers with their prices", async () => {
    const form = await h.json<{
      customFields: { label: string; type: string }[];
      tiers: { label: string; price: number; minAmount?: number }[];
    }>(`${base}/public`);
    expect(form.status).toBe(200);
    expect(form.body.customFields.map((f) => [f.label, f.type])).toEqual([
      ["Société", "TextInput"],
      ["Justificatif", "File"],
      ["Taille", "ChoiceList"],
    ]);
    expect(form.body.tiers.map((t) => [t.label, t.price, t.minAmount])).toEqual([
      ["Adhésion annuelle", 3000, undefined],
      ["Adhésion de soutien", 0, 5000],
    ]);
    expect(contract().schemas.validate("public-form", form.body)).toEqual([]);
    expect(documentProperties("FormPublicModel").filter((p) => !(p in form.body))).toEqual([]);
  });

  it("serves the declared orders with their ids, payer, amount and payment states", async () => {
    const orders = await h.json<{
      data: {
        id: number;
        payer: { firstName: string };
        amount: { total: number };
        payments: { state: string }[];
      }[];
    }>("/v5/organizations/club-des-lecteurs/forms/Event/rencontre-auteurs/orders?sortOrder=Asc");
    // In date order: 70002, undated, is spread over the form's dates (2024-09-01 to 2025-05-31) to the
    // middle, before 70001's 2025-02-14.
    expect(orders.body.data.map((o) => o.id)).toEqual([70002, 70001]);
    expect(orders.body.data[1]).toMatchObject({ payer: { firstName: "Ada" }, amount: { total: 1000 } });
    const refused = await h.json<{ payments: { state: string; amount: number }[] }>("/v5/orders/70002");
    expect(refused.body.payments).toEqual([expect.objectContaining({ state: "Refused", amount: 1000 })]);
    const payment = await h.json<{ order: { id: number } }>(
      `/v5/payments/${(await h.json<{ payments: { id: number }[] }>("/v5/orders/70001")).body.payments[0]?.id}`,
    );
    expect(payment.body.order.id).toBe(70001);
  });

  it("lets the declared client in with its rights", async () => {
    const token = await fetch(`${h.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "my-sdk-ci",
        client_secret: "my-sdk-ci-secret",
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const order = await fetch(`${h.url}/v5/orders/70001`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(order.status).toBe(200);
  });

  it("keeps the data file's field types equal to the provider's document's", () => {
    const schema = JSON.parse(
      readFileSync(join(packageRoot(), "contracts", "meta", "sandbox-data.meta.json"), "utf8"),
    ) as { $defs: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    const enums = publishedDocument().components.schemas as Record<string, { enum?: string[] }>;
    const documentEnum = (name: string) =>
      Object.entries(enums).find(([n]) => n.endsWith(`.Enums.${name}`))?.[1].enum;
    expect(schema.$defs.customField?.properties.type?.enum).toEqual(documentEnum("FieldType"));
    expect(schema.$defs.form?.properties.type?.enum).toEqual(documentEnum("FormType"));
    expect(schema.$defs.tier?.properties.type?.enum).toEqual(documentEnum("TierType"));
    expect(schema.$defs.payment?.properties.state?.enum).toEqual(documentEnum("PaymentState"));
    expect(schema.$defs.customField?.properties.type?.enum).toContain("File");
  });
});

describe("sandbox --data: a refunded payment", () => {
  let h: Harness;
  const form = "/v5/organizations/club-des-lecteurs/forms/Event/rencontre-auteurs";
  const text = `organizations:
  - slug: club-des-lecteurs
    forms:
      - type: Event
        slug: rencontre-auteurs
        orders:
          - id: 71001
            payments: [{ state: Refunded }]
          - id: 71002
            payments: [{ state: Authorized }]
`;
  beforeAll(async () => {
    h = await harness({
      at: day("2025-07-01"),
      data: buildSandboxData(parseDataFile(text, "refunds.yaml"), 1),
    });
  });
  afterAll(() => h.close());

  type Payment = { id: number; amount: number; state: string; refundOperations: Record<string, unknown>[] };
  /** The payments each listing shows of an order: items, orders (the form's and the organization's), payments. */
  const listed = async (orderId: number) => {
    const items = await h.json<{ data: { order: { id: number }; payments: Payment[] }[] }>(`${form}/items`);
    const orders = await h.json<{ data: { id: number; payments: Payment[] }[] }>(`${form}/orders`);
    const all = await h.json<{ data: { id: number; payments: Payment[] }[] }>(
      "/v5/organizations/club-des-lecteurs/orders",
    );
    const payments = await h.json<{ data: (Payment & { order: { id: number } })[] }>(`${form}/payments`);
    return {
      items: items.body.data.find((e) => e.order.id === orderId)?.payments[0],
      orders: orders.body.data.find((o) => o.id === orderId)?.payments[0],
      organizationOrders: all.body.data.find((o) => o.id === orderId)?.payments[0],
      payments: payments.body.data.find((p) => p.order.id === orderId),
    };
  };
  const operationShape = (p: Payment | undefined) =>
    p?.refundOperations.map((r) => ({ ...r, id: typeof r.id, meta: Object.keys(r.meta as object) }));

  it("shows the refund operation of its whole amount in the items, orders and payments listings", async () => {
    const seen = await listed(71001);
    for (const [listing, payment] of Object.entries(seen)) {
      expect(payment, listing).toMatchObject({ state: "Refunded" });
      expect(payment?.refundOperations, listing).toEqual([
        expect.objectContaining({ amount: payment?.amount, status: "Processed" }),
      ]);
    }
  });

  it("shows the same operation as a refund made through the API", async () => {
    const before = await listed(71002);
    for (const payment of Object.values(before)) expect(payment?.refundOperations).toEqual([]);
    const id = before.payments?.id;
    const refund = await h.send("POST", `/v5/payments/${id}/refund`, undefined);
    expect(refund.status).toBe(200);
    const api = await listed(71002);
    const file = await listed(71001);
    for (const listing of ["items", "orders", "organizationOrders", "payments"] as const) {
      expect(api[listing]?.state, listing).toBe("Refunded");
      expect(operationShape(file[listing]), listing).toEqual(operationShape(api[listing]));
    }
  });
});
