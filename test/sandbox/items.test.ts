import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { contract, day, type Harness, harness } from "./helpers.js";

interface Entry {
  id: number;
  amount: unknown;
  initialAmount: number;
  priceCategory: string;
  tierId: number;
  name: string;
  type: string;
  state: string;
  order: { id: number; date: string; formSlug: string; formType: string; organizationName: string };
  user: { firstName: string; lastName: string };
  /** `amount`: the whole payment (the order's total); `shareAmount`: this item's part of it. */
  payments: { id: number; amount: number; shareAmount: number; state: string; refundOperations: unknown[] }[];
  customFields: { name: string; type: string; answer: string }[];
  options: { name: string; amount: number; optionId: number }[];
  items: { id: number; amount: number; type: string }[];
}

interface PublicForm {
  tiers: { id: number; price: number; extraOptions: { id: number; price: number }[] }[];
}

/** Every entry of the main form's items listing, crawled to the end. */
async function crawl(h: Harness): Promise<Entry[]> {
  const entries: Entry[] = [];
  let token: string | undefined;
  for (;;) {
    const query = `?pageSize=100${token ? `&continuationToken=${encodeURIComponent(token)}` : ""}`;
    const page = await h.json<{ data: Entry[]; pagination: { continuationToken: string } }>(
      `${h.formPath("items")}${query}`,
    );
    expect(page.status).toBe(200);
    if (page.body.data.length === 0) return entries;
    entries.push(...page.body.data);
    token = page.body.pagination.continuationToken;
  }
}

describe("sandbox items listing: the seed's fields and the document's beside them", () => {
  let h: Harness;
  let entries: Entry[];
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 40 });
    entries = await crawl(h);
  });
  afterAll(() => h.close());

  it("gives every entry the document's item fields, none undefined", () => {
    expect(entries).toHaveLength(40);
    for (const entry of entries) {
      expect(entry.order.date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(entry.order).toMatchObject({ formSlug: "gala-annuel", formType: "Event" });
      expect(entry.order.organizationName).toBeTypeOf("string");
      expect(entry.user.firstName).toBeTypeOf("string");
      expect(entry.user.lastName).toBeTypeOf("string");
      expect(entry.payments.length).toBeGreaterThan(0);
      for (const payment of entry.payments) expect(payment.refundOperations).toEqual([]);
      expect(Array.isArray(entry.customFields)).toBe(true);
      expect(Array.isArray(entry.options)).toBe(true);
      for (const field of ["name", "priceCategory", "tierId", "type", "state", "initialAmount"] as const)
        expect(entry[field], field).toBeDefined();
    }
    expect(entries.some((e) => e.customFields.some((f) => f.type === "File" && /^http/.test(f.answer)))).toBe(
      true,
    );
  });

  it("prices each item at its tier's advertised price, the options taken beside it, the entry's total both and the donation", async () => {
    const form = await h.json<PublicForm>(`${h.formPath("items").replace(/\/items$/, "")}/public`, "reader");
    const tier = form.body.tiers[0];
    if (!tier) throw new Error("the public form has no tier");
    const optionPrice = new Map(tier.extraOptions.map((o) => [o.id, o.price]));
    const totals = new Set<number>();
    for (const entry of entries) {
      expect(entry.tierId).toBe(tier.id);
      expect(entry.priceCategory).toBe("Fixed");
      expect(entry.initialAmount).toBe(tier.price);
      let expected = tier.price;
      for (const option of entry.options) {
        expect(option.amount).toBe(optionPrice.get(option.optionId));
        expected += option.amount;
      }
      // The seed's entry is the order's line: its items are the order's, a donation the payer added too,
      // and its total is theirs.
      const donations = entry.items.slice(1);
      expect(donations.every((item) => item.type === "Donation")).toBe(true);
      const donated = donations.reduce((sum, item) => sum + item.amount, 0);
      expect(entry.amount).toEqual({ total: expected + donated, vat: 0 });
      // The document: an item's amount is "after discount without extra options".
      expect(entry.items[0]?.amount).toBe(tier.price);
      expect(entry.payments.reduce((sum, p) => sum + p.shareAmount, 0)).toBe(expected);
      totals.add(expected);
    }
    expect(totals.size).toBeGreaterThan(1);
    expect(entries.some((entry) => entry.items.length > 1)).toBe(true);
  });

  it("resolves an item's order through its own route with the same ids and amounts", async () => {
    for (const entry of entries.slice(0, 5)) {
      const order = await h.json<{
        id: number;
        date: string;
        amount: { total: number };
        items: { id: number; amount: number; tierId: number; options: { amount: number }[] }[];
        payments: { id: number; amount: number }[];
      }>(`/v5/orders/${entry.order.id}`);
      const withOptions = (i: { amount: number; options: { amount: number }[] }) =>
        i.options.reduce((sum, o) => sum + o.amount, i.amount);
      expect(order.status).toBe(200);
      expect(order.body.id).toBe(entry.order.id);
      expect(order.body.date).toBe(entry.order.date);
      expect(order.body.items[0]).toMatchObject({ id: entry.id, tierId: entry.tierId });
      expect(order.body.items[0]?.amount).toBe(entry.items[0]?.amount);
      // The order's total is its items' sum, each with its options: the entry's item plus a donation,
      // the items the seed's entry lists, and its total.
      expect(order.body.items.map((i) => i.id)).toEqual(entry.items.map((i) => i.id));
      expect(order.body.amount.total).toBe(order.body.items.reduce((sum, i) => sum + withOptions(i), 0));
      expect(order.body.amount.total).toBe((entry.amount as { total: number }).total);
      expect(order.body.payments.map((p) => [p.id, p.amount])).toEqual(
        entry.payments.map((p) => [p.id, p.amount]),
      );
    }
  });

  it("validates against the seed's schema, which flags the document's amount", async () => {
    const route = contract().routes.byId("v5.form-items");
    const page = await h.json<{ data: Entry[] }>(h.formPath("items"));
    expect(contract().schemas.validatePage(route, page.body, "not-applicable")).toEqual([]);
    const broken = { ...page.body, data: [{ ...(entries[0] as Entry), amount: 4000 }] };
    const diagnostics = contract().schemas.validatePage(route, broken, "not-applicable");
    expect(diagnostics.map((d) => d.path)).toContain("response.data[0].amount");
  });
});

describe("sandbox with --shapes document", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 10, shapes: "document" });
  });
  afterAll(() => h.close());

  it("serves an entry's amount as integer cents without its options, which the document-shaped contract accepts and the seed's flags", async () => {
    const route = contract().routes.byId("v5.form-items");
    const page = await h.json<{ data: Entry[] }>(h.formPath("items"));
    expect(page.status).toBe(200);
    for (const entry of page.body.data) {
      expect(typeof entry.amount).toBe("number");
      const options = entry.options.reduce((sum, o) => sum + o.amount, 0);
      expect(entry.amount).toBe(entry.initialAmount);
      expect((entry.amount as number) + options).toBe(
        entry.payments.reduce((sum, p) => sum + p.shareAmount, 0),
      );
    }
    const documentContract = loadContract({ shapes: "document" });
    expect(documentContract.schemas.validatePage(route, page.body, "not-applicable")).toEqual([]);
    expect(contract().schemas.validatePage(route, page.body, "not-applicable").length).toBeGreaterThan(0);
  });
});
