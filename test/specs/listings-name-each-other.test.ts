import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
 * A listing that always leaves the same entries out (at every page size, in either order, with and
 * without totals) agrees with itself in every crawl. After the counts left the six listings, only the
 * other listings can show the loss: an item names its order and its payments, an order its payments, a
 * payment its order (`pagination.names` in routes.yaml). Without provider states, as against any provider.
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
  }, 60_000);

  it("flags a payments listing that never serves one payment in 7, named by the orders and the items", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: leaving("payments", (payment) => Number(payment.id) % 7 !== 0),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(/v5\.form-payments: .* the entries of v5\.form-(items|orders) \(/);
  }, 60_000);

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
  }, 120_000);
});
