import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness, type Receiver, receiver } from "./helpers.js";

interface Payment {
  id: number;
  amount: number;
  state: string;
  refundOperations: { id: number; amount: number; status: string }[];
  order: { id: number };
}

describe("sandbox: the routes the published document adds, from one data model", () => {
  let h: Harness;
  let hook: Receiver;
  let signatureKey: string;
  const slug = "amis-du-bac-a-sable";
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 20 });
    hook = await receiver();
    const state = await h.state("a partner with a notification URL", { url: hook.url });
    signatureKey = String(state.signatureKey);
  });
  afterAll(async () => {
    await hook.close();
    await h.close();
  });

  it("serves each new route with a body our schema accepts", async () => {
    const first = (await h.json<{ data: { id: number; payments: { id: number }[] }[] }>(h.formPath("items")))
      .body.data[0];
    if (!first) throw new Error("no entry");
    const cases: [string, string][] = [
      ["v5.organization", `/v5/organizations/${slug}`],
      ["v5.organization-forms", `/v5/organizations/${slug}/forms`],
      ["v5.organization-form-types", `/v5/organizations/${slug}/formTypes`],
      ["v5.user-organizations", "/v5/users/me/organizations"],
      ["v5.partner-organizations", "/v5/partners/me/organizations"],
      ["v5.item", `/v5/items/${first.id}`],
      ["v5.payment", `/v5/payments/${first.payments[0]?.id}`],
    ];
    for (const [id, path] of cases) {
      const { status, body } = await h.json(path);
      expect(status, path).toBe(200);
      const schema = contract().routes.byId(id).response.schema ?? "";
      expect(contract().schemas.validate(schema, body), path).toEqual([]);
    }
    const forms = await h.json<{ data: { formSlug: string }[]; pagination: { continuationToken: string } }>(
      `/v5/organizations/${slug}/forms?pageSize=1`,
    );
    expect(forms.body.data).toHaveLength(1);
    const token = encodeURIComponent(forms.body.pagination.continuationToken);
    const next = await h.json<{ data: { formSlug: string }[] }>(
      `/v5/organizations/${slug}/forms?pageSize=1&continuationToken=${token}`,
    );
    expect(next.body.data[0]?.formSlug).not.toBe(forms.body.data[0]?.formSlug);
  });

  it("refuses unknown ids with 404, and the admin routes to a reader with 403", async () => {
    expect((await h.get("/v5/payments/12")).status).toBe(404);
    expect((await h.get("/v5/items/12")).status).toBe(404);
    expect((await h.get("/v5/organizations/nobody")).status).toBe(404);
    expect((await h.send("POST", "/v5/orders/12/cancel", "")).status).toBe(404);
    const paid = await h.state("an order is paid");
    expect((await h.get(`/v5/payments/${paid.paymentId}`, "reader")).status).toBe(403);
    expect((await h.get(`/v5/items/${paid.itemId}`, "reader")).status).toBe(403);
  });

  it("agrees on ids and amounts: an item, its order and its payments through their own routes", async () => {
    const paid = await h.state("an order is paid");
    const item = (
      await h.json<{ id: number; amount: number; order: { id: number }; payments: Payment[] }>(
        `/v5/items/${paid.itemId}`,
      )
    ).body;
    const order = (
      await h.json<{ id: number; amount: { total: number }; payments: { id: number }[] }>(
        `/v5/orders/${item.order.id}`,
      )
    ).body;
    expect(order.id).toBe(paid.orderId);
    expect(order.amount.total).toBe(item.amount);
    expect(order.payments.map((p) => p.id)).toEqual(item.payments.map((p) => p.id));
    for (const share of item.payments) {
      const payment = (await h.json<Payment>(`/v5/payments/${share.id}`)).body;
      expect(payment.order.id).toBe(order.id);
      expect(payment.amount).toBe(share.amount);
    }
  });

  it("refunds a payment: later reads, listings and a signed notification show the refund", async () => {
    const paid = await h.state("an order is paid");
    const before = hook.received.length;
    const refund = await h.send("POST", `/v5/payments/${paid.paymentId}/refund`, "");
    expect(refund.status).toBe(200);
    const operation = (await refund.json()) as { id: number; amount: number; paymentId: number };
    expect(contract().schemas.validate("refund-operation", operation)).toEqual([]);
    expect(operation.paymentId).toBe(paid.paymentId);
    const payment = (await h.json<Payment>(`/v5/payments/${paid.paymentId}`)).body;
    expect(payment.state).toBe("Refunded");
    expect(payment.refundOperations).toEqual([
      expect.objectContaining({ id: operation.id, amount: operation.amount, status: "Processed" }),
    ]);
    const item = (await h.json<{ payments: Payment[] }>(`/v5/items/${paid.itemId}`)).body;
    expect(item.payments[0]?.refundOperations[0]?.id).toBe(operation.id);
    const listing = (await h.json<{ data: Payment[] }>(`/v5/organizations/${slug}/payments?pageSize=100`))
      .body;
    expect(listing.data.find((p) => p.id === paid.paymentId)?.refundOperations).toHaveLength(1);
    await hook.waitFor(before + 1);
    const sent = hook.received.slice(before).find((n) => n.body.includes(`"refundOperations":[{`));
    expect(sent).toBeDefined();
    const expected = createHmac("sha256", signatureKey)
      .update(sent?.body ?? "")
      .digest("hex");
    expect(sent?.signature).toBe(expected);
    const again = await h.send("POST", `/v5/payments/${paid.paymentId}/refund`, "");
    expect(again.status).toBe(400);
    expect(((await again.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("Error");
  });

  it("refunds part of a payment, and refuses an amount above what is left", async () => {
    const paid = await h.state("an order is paid");
    const payment = (await h.json<Payment>(`/v5/payments/${paid.paymentId}`)).body;
    expect(
      (await h.send("POST", `/v5/payments/${paid.paymentId}/refund?amount=${payment.amount + 1}`, "")).status,
    ).toBe(400);
    const part = await h.send("POST", `/v5/payments/${paid.paymentId}/refund?amount=100`, "");
    expect(part.status).toBe(200);
    const after = (await h.json<Payment>(`/v5/payments/${paid.paymentId}`)).body;
    expect(after.state).toBe("Authorized");
    expect(after.refundOperations.map((r) => r.amount)).toEqual([100]);
  });

  it("cancels an order: its item reads Canceled everywhere, and a second cancel is refused", async () => {
    const paid = await h.state("an order is paid");
    const cancel = await h.send("POST", `/v5/orders/${paid.orderId}/cancel`, "");
    expect(cancel.status).toBe(200);
    const item = (await h.json<{ state: string }>(`/v5/items/${paid.itemId}`)).body;
    expect(item.state).toBe("Canceled");
    const order = (await h.json<{ items: { state: string }[] }>(`/v5/orders/${paid.orderId}`)).body;
    expect(order.items[0]?.state).toBe("Canceled");
    expect((await h.send("POST", `/v5/orders/${paid.orderId}/cancel`, "")).status).toBe(400);
  });

  it("refunds a seeded order too: the items listing shows it after", async () => {
    const entry = (await h.json<{ data: { id: number; payments: Payment[] }[] }>(h.formPath("items"))).body
      .data[3];
    if (!entry) throw new Error("no entry");
    const paymentId = entry.payments[0]?.id;
    expect((await h.send("POST", `/v5/payments/${paymentId}/refund`, "")).status).toBe(200);
    const again = (await h.json<{ data: { id: number; payments: Payment[] }[] }>(h.formPath("items"))).body
      .data[3];
    expect(again?.id).toBe(entry.id);
    expect(again?.payments[0]?.state).toBe("Refunded");
    expect(again?.payments[0]?.refundOperations).toHaveLength(1);
  });

  it("removes notification URLs: partner-wide and for one organization", async () => {
    await h.send("PUT", "/v5/partners/me/api-notifications", { url: "https://example.org/a" });
    await h.send("PUT", `/v5/partners/me/api-notifications/organizations/${slug}`, {
      url: "https://example.org/b",
    });
    const urls = async () =>
      (
        await h.json<{ urlNotificationList: { url: string }[] }>("/v5/partners/me")
      ).body.urlNotificationList.map((u) => u.url);
    expect(await urls()).toEqual(expect.arrayContaining(["https://example.org/a", "https://example.org/b"]));
    expect(
      (await h.send("DELETE", `/v5/partners/me/api-notifications/organizations/${slug}`, "")).status,
    ).toBe(200);
    expect(await urls()).not.toContain("https://example.org/b");
    expect(await urls()).toContain("https://example.org/a");
    expect((await h.send("DELETE", "/v5/partners/me/api-notifications", "")).status).toBe(200);
    expect(await urls()).toEqual([]);
    expect(
      (await h.send("DELETE", "/v5/partners/me/api-notifications/organizations/nobody", "")).status,
    ).toBe(404);
  });
});
