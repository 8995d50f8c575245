import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
 * A listing that always leaves the same entries out (at every page size, in either order, with and
 * without totals) agrees with itself in every crawl. After the counts left the six listings, only the
 * other listings can show the loss: an item names its order and its payments, an order its payments and
 * its items, a payment its order and its items (`pagination.names` in routes.yaml). Without provider
 * states, as against any provider.
 */
const AT = "2026-01-01" as IsoDay;
const LISTING = /\/(orders|payments|items)$/;

type Entry = Record<string, unknown>;
const kindOf = (url: URL) => LISTING.exec(url.pathname)?.[1];

/** A provider whose `listing` listings serve only the entries `keep` keeps (their totals left as they were). */
const leaving = (listing: string, keep: (entry: Entry) => boolean) =>
  editing({
    body: (url, body) =>
      kindOf(url) === listing && Array.isArray(body.data)
        ? { ...body, data: (body.data as Entry[]).filter(keep) }
        : body,
  });

/** Every payment object anywhere in a body (an entry of the payments listing, or one an entry names). */
function eachPayment(value: unknown, visit: (payment: Entry) => void): void {
  if (Array.isArray(value)) for (const v of value) eachPayment(v, visit);
  else if (value !== null && typeof value === "object") {
    const object = value as Entry;
    if ("paymentMeans" in object) visit(object);
    for (const v of Object.values(object)) eachPayment(v, visit);
  }
}

/** Every item object anywhere in a body (an entry of the items listing, or one an entry lists). */
function eachItem(value: unknown, visit: (item: Entry) => void): void {
  if (Array.isArray(value)) for (const v of value) eachItem(v, visit);
  else if (value !== null && typeof value === "object") {
    const object = value as Entry;
    if ("type" in object && "state" in object && !("paymentMeans" in object)) visit(object);
    for (const v of Object.values(object)) eachItem(v, visit);
  }
}

describe("a listing that leaves out, at every size, entries the other listings name", () => {
  it("flags an orders listing that never serves one order in 7, named by the items and the payments", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: leaving("orders", (order) => Number(order.id) % 7 !== 0),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(
      /v5\.form-orders: .* lost \d+ entries \(.*\): the entries of v5\.form-(items|payments) \(/,
    );
    expect(byId(report, "pagination/complete")?.evidence?.diagnostics?.join("\n")).toMatch(/missing from /);
  });

  it("flags a payments listing that never serves one payment in 7, named by the orders and the items", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: leaving("payments", (payment) => Number(payment.id) % 7 !== 0),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(/v5\.form-payments: .* the entries of v5\.form-(items|orders) \(/);
  });

  it("flags an items listing that never serves one item in 7, named by the orders and the payments", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: leaving("items", (item) => Number(item.id) % 7 !== 0),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(/v5\.form-items: .* the entries of v5\.form-(orders|payments) \(/);
  });

  it("passes an items listing whose entries are the orders' lines, in the seed's shape", async () => {
    // Each entry is named by an id of its own, not by an item's; it holds the order's items.
    const ownId = (entry: Entry) => ({ ...entry, id: Number(entry.id) + 700_000_000 });
    const variants = {
      "lines that hold the order's items": editing({
        body: (url, body) =>
          kindOf(url) === "items" && Array.isArray(body.data)
            ? { ...body, data: (body.data as Entry[]).map(ownId) }
            : body,
      }),
      // The same lines, one in 7 left out with the items they hold: the orders still name those items.
      "those lines, one in 7 left out": editing({
        body: (url, body) =>
          kindOf(url) === "items" && Array.isArray(body.data)
            ? { ...body, data: (body.data as Entry[]).filter((e) => Number(e.id) % 7 !== 0).map(ownId) }
            : body,
      }),
      // Lines whose items carry ids of the listing's own: no id an order names is this listing's, so the
      // orders vouch for none of its entries.
      "lines whose items have ids of their own": editing({
        body: (url, body) =>
          kindOf(url) === "items" && Array.isArray(body.data)
            ? {
                ...body,
                data: (body.data as Entry[]).map((entry) =>
                  ownId({
                    ...entry,
                    items: (entry.items as Entry[]).map((item) => ({
                      ...item,
                      id: Number(item.id) + 800_000_000,
                    })),
                  }),
                ),
              }
            : body,
      }),
    };
    const verdicts: Record<string, string[]> = {};
    for (const [name, through] of Object.entries(variants)) {
      verdicts[name] = checksIn(problems(await verifySandbox(AT, { hooks: false, through })));
    }
    expect(verdicts).toEqual({
      "lines that hold the order's items": [],
      "those lines, one in 7 left out": ["pagination/complete"],
      "lines whose items have ids of their own": [],
    });
  });

  it("passes what a listing may legally leave out, and entries that name nothing", async () => {
    const variants = {
      // The payments listing's default leaves one state out (the document publishes no default for
      // `states`): every payment of that state, wherever it is named, reads that state.
      "a payment state the listing leaves out": editing({
        body: (url, body) => {
          eachPayment(body, (payment) => {
            if (Number(payment.id) % 3 === 0) payment.state = "Refunded";
          });
          return kindOf(url) === "payments" && Array.isArray(body.data)
            ? { ...body, data: (body.data as Entry[]).filter((p) => p.state !== "Refunded") }
            : body;
        },
      }),
      // The items listing's default leaves one item state out (the document publishes no default for
      // `itemStates`): every item of that state, wherever it is named, reads that state.
      "an item state the listing leaves out": editing({
        body: (url, body) => {
          eachItem(body, (item) => {
            if (Number(item.id) % 3 === 0) item.state = "Waiting";
          });
          return kindOf(url) === "items" && Array.isArray(body.data)
            ? { ...body, data: (body.data as Entry[]).filter((i) => i.state !== "Waiting") }
            : body;
        },
      }),
      // Entries in the seed's shape alone: no `order` or `payments` beside it, so nothing is named.
      "items and payments that name nothing": editing({
        body: (url, body) =>
          kindOf(url) !== undefined && kindOf(url) !== "orders" && Array.isArray(body.data)
            ? { ...body, data: (body.data as Entry[]).map(({ order: _, payments: __, ...rest }) => rest) }
            : body,
      }),
    };
    for (const [name, through] of Object.entries(variants)) {
      const report = await verifySandbox(AT, { hooks: false, through });
      expect(problems(report), name).toEqual([]);
    }
  });
});
