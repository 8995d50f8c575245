import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { day, type Harness, harness } from "./helpers.js";

interface Tier {
  id: number;
  tierType: string;
  price: number;
  minAmount?: number;
}
interface Share {
  id: number;
  shareAmount: number;
}
interface Item {
  id: number;
  amount: number;
  initialAmount: number;
  type: string;
  tierId: number;
  order: { id: number };
  payments: (Share & { amount: number })[];
  options?: { amount: number }[];
}
interface Order {
  id: number;
  amount: { total: number };
  items: {
    id: number;
    amount: number;
    type: string;
    tierId: number;
    payments: Share[];
    options?: { amount: number }[];
  }[];
  payments: { id: number; amount: number; items: Share[] }[];
}
interface Payment {
  id: number;
  amount: number;
  order: { id: number };
  items: (Share & { amount: number; type: string })[];
}

describe("sandbox donations: an order item of type Donation, consistent across its routes", () => {
  let h: Harness;
  let orders: Order[];
  let tiers: Tier[];
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 40 });
    const page = await h.json<{ data: Order[] }>(`${h.formPath("orders")}?pageSize=40`);
    orders = page.body.data;
    const form = await h.json<{ tiers: Tier[] }>(
      h.formPath("items").replace(/\/items$/, "/public"),
      "reader",
    );
    tiers = form.body.tiers;
  });
  afterAll(() => h.close());

  it("adds a donation to some orders of a form whose public form offers a donation tier", () => {
    const donationTier = tiers.find((t) => t.tierType === "Donation");
    expect(donationTier?.minAmount).toBeGreaterThan(0);
    const withDonation = orders.filter((o) => o.items.some((i) => i.type === "Donation"));
    expect(withDonation.length).toBeGreaterThan(0);
    expect(withDonation.length).toBeLessThan(orders.length);
    for (const order of withDonation) {
      const donation = order.items.find((i) => i.type === "Donation");
      expect(donation?.tierId).toBe(donationTier?.id);
      expect(donation?.amount).toBeGreaterThanOrEqual(donationTier?.minAmount ?? 0);
    }
  });

  it("agrees on ids and amounts: each item, its order and its payments through their own routes", async () => {
    const withDonation = orders.filter((o) => o.items.some((i) => i.type === "Donation")).slice(0, 4);
    for (const listed of withDonation) {
      const order = (await h.json<Order>(`/v5/orders/${listed.id}`)).body;
      expect(order.items.map((i) => i.id)).toEqual(listed.items.map((i) => i.id));
      // Each item's amount leaves its options out (the document); the order's total adds them.
      const withOptions = (i: { amount: number; options?: { amount: number }[] }) =>
        (i.options ?? []).reduce((sum, o) => sum + o.amount, i.amount);
      const total = order.items.reduce((sum, i) => sum + withOptions(i), 0);
      expect(order.amount.total).toBe(total);
      expect(order.payments.reduce((sum, p) => sum + p.amount, 0)).toBe(total);
      for (const listedItem of order.items) {
        const item = (await h.json<Item>(`/v5/items/${listedItem.id}`)).body;
        expect(item).toMatchObject({ id: listedItem.id, amount: listedItem.amount, type: listedItem.type });
        expect(item.tierId).toBe(listedItem.tierId);
        expect(item.order.id).toBe(order.id);
        expect(item.payments.map((p) => p.id)).toEqual(order.payments.map((p) => p.id));
        expect(item.payments.reduce((sum, p) => sum + p.shareAmount, 0)).toBe(withOptions(item));
        for (const share of item.payments) {
          const payment = (await h.json<Payment>(`/v5/payments/${share.id}`)).body;
          expect(payment.order.id).toBe(order.id);
          expect(payment.amount).toBe(share.amount);
          expect(payment.items.find((i) => i.id === item.id)).toMatchObject({
            shareAmount: share.shareAmount,
            amount: item.amount,
            type: item.type,
          });
        }
      }
    }
  });

  it("answers 404 for a donation id that no order carries", async () => {
    const without = orders.find((o) => !o.items.some((i) => i.type === "Donation"));
    expect(without).toBeDefined();
    expect((await h.get(`/v5/items/${(without?.id ?? 0) + 300_000_000}`)).status).toBe(404);
  });
});
