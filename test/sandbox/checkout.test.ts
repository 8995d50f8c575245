import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness, type Receiver, receiver } from "./helpers.js";

const SUCCESS = "4242 4242 4242 4242";
const REFUSED = "4000000000000002";

describe("sandbox checkout", () => {
  let h: Harness;
  let hook: Receiver;
  const slug = "amis-du-bac-a-sable";
  const request = {
    totalAmount: 3000,
    initialAmount: 1000,
    itemName: "Adhésion football",
    backUrl: "https://integrator.example/back",
    errorUrl: "https://integrator.example/error",
    returnUrl: "https://integrator.example/return?from=checkout",
    containsDonation: false,
    terms: [
      { amount: 1000, date: "2025-08-10T00:00:00+02:00" },
      { amount: 1000, date: "2025-09-10T00:00:00+02:00" },
    ],
    payer: { firstName: "John", lastName: "Doe", email: "john.doe@example.org", country: "FRA" },
    metadata: { cart: 75698555 },
  };
  const pay = async (redirectUrl: string, card: string) => {
    const response = await fetch(`${redirectUrl}/pay`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ cardNumber: card }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { outcome: string; redirectUrl?: string },
    };
  };
  /** Asks for an intent whose first term falls on `date`, the second on 2027-01-23. */
  const createWithTermOn = (date: string) =>
    h.send("POST", `/v5/organizations/${slug}/checkout-intents`, {
      ...request,
      terms: [
        { amount: 1000, date },
        { amount: 1000, date: "2027-01-23" },
      ],
    });
  const create = async () => {
    const response = await h.send("POST", `/v5/organizations/${slug}/checkout-intents`, request);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; redirectUrl: string };
    expect(contract().schemas.validate("checkout-intent-created", body)).toEqual([]);
    return body;
  };

  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 5 });
    hook = await receiver();
    await h.state("a partner with a notification URL", { url: hook.url });
  });
  afterAll(async () => {
    await hook.close();
    await h.close();
  });

  it("creates an intent whose redirectUrl is the sandbox's checkout page", async () => {
    const intent = await create();
    expect(intent.redirectUrl).toMatch(new RegExp(`^${h.url}/associations/${slug}/checkout/[0-9a-f]{32}$`));
    const page = await fetch(intent.redirectUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Adhésion football");
    expect(html).toContain('href="https://integrator.example/back"');
    const read = await h.json(`/v5/organizations/${slug}/checkout-intents/${intent.id}`);
    expect(read.body).toEqual({ metadata: request.metadata, id: intent.id, redirectUrl: intent.redirectUrl });
    expect(contract().schemas.validate("checkout-intent", read.body)).toEqual([]);
  });

  it("lets the user fail any number of times, then pay; returns to returnUrl and notifies", async () => {
    const intent = await create();
    for (let attempt = 1; attempt <= 6; attempt++) {
      const failed = await pay(intent.redirectUrl, REFUSED);
      expect(failed.body).toMatchObject({ outcome: "refused", failedAttempts: attempt });
      expect(failed.body.redirectUrl).toBeUndefined();
    }
    const before = hook.received.length;
    const paid = await pay(intent.redirectUrl, SUCCESS);
    expect(paid.body.outcome).toBe("succeeded");
    const back = new URL(paid.body.redirectUrl ?? "");
    expect(`${back.origin}${back.pathname}`).toBe("https://integrator.example/return");
    expect(back.searchParams.get("from")).toBe("checkout");
    expect(back.searchParams.get("checkoutIntentId")).toBe(String(intent.id));
    expect(back.searchParams.get("code")).toBe("succeeded");
    const read = await h.json<{
      order: { id: number; formType: string; formSlug: string; checkoutIntentId: number };
    }>(`/v5/organizations/${slug}/checkout-intents/${intent.id}`);
    expect(String(read.body.order.id)).toBe(back.searchParams.get("orderId"));
    expect(read.body.order).toMatchObject({
      formType: "Checkout",
      formSlug: "default",
      checkoutIntentId: intent.id,
    });
    expect(contract().schemas.validate("checkout-intent", read.body)).toEqual([]);
    await hook.waitFor(before + 2);
    const sent = hook.received
      .slice(before)
      .map((r) => JSON.parse(r.body) as { eventType: string; metadata: unknown });
    expect(sent.map((n) => n.eventType)).toEqual(["Payment", "Order"]);
    expect(sent[0]?.metadata).toEqual(request.metadata);
    const again = await pay(intent.redirectUrl, SUCCESS);
    expect(again.body.outcome).toBe("already-paid");
    const orders = await h.json<{ data: { id: number }[] }>(
      `/v5/organizations/${slug}/forms/Checkout/default/orders`,
    );
    expect(orders.body.data.map((o) => o.id)).toContain(read.body.order.id);
  });

  it("keeps the payment window open 15 minutes on the sandbox clock, and not after", async () => {
    const open = await create();
    const late = await create();
    await h.clock({ advanceMinutes: 14 });
    expect((await pay(open.redirectUrl, SUCCESS)).body.outcome).toBe("succeeded");
    await h.clock({ advanceMinutes: 2 });
    const expired = await pay(late.redirectUrl, SUCCESS);
    expect(expired.status).toBe(410);
    expect(expired.body.outcome).toBe("expired");
    expect((await fetch(late.redirectUrl)).status).toBe(410);
    await h.clock({ reset: true });
  });

  it("works without JavaScript: form posts redirect on success and re-render on failure", async () => {
    const intent = await create();
    const post = (card: string) =>
      fetch(`${intent.redirectUrl}/pay`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ cardNumber: card }),
      });
    const failed = await post(REFUSED);
    expect(failed.status).toBe(200);
    expect(await failed.text()).toContain("Payment refused");
    const paid = await post(SUCCESS);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toMatch(/^https:\/\/integrator\.example\/return\?/);
  });

  it("accepts a term's date as the service does: plain date, date-time with or without offset or fraction", async () => {
    const base = `/v5/organizations/${slug}/checkout-intents`;
    for (const date of [
      "2026-12-23",
      "2026-12-23T00:00:00",
      "2026-12-23T10:30",
      "2026-12-23T10:30:00.1234567",
      "2026-12-23T00:00:00Z",
      "2026-12-23T00:00:00+01:00",
    ]) {
      const response = await createWithTermOn(date);
      expect(response.status, date).toBe(200);
      const created = (await response.json()) as { id: number };
      const read = await h.json<{ terms?: unknown }>(`${base}/${created.id}`);
      expect(read.status).toBe(200);
    }
  });

  it("refuses a term's date that is no date at all, in the service's error envelope", async () => {
    for (const date of ["23/12/2026", "2026-12-23 10:00", "tomorrow", "2026-12-23T10"]) {
      const response = await createWithTermOn(date);
      expect(response.status, date).toBe(400);
      const error = (await response.json()) as { errors: { code: string; message: string }[] };
      expect(error.errors[0]?.code, date).toBe("Error");
      expect(error.errors[0]?.message, date).toMatch(/^Code : InvalidRequest - .*date/);
    }
  });

  it("checks amounts first: totalAmount must be initialAmount plus the terms, whatever else is wrong", async () => {
    const base = `/v5/organizations/${slug}/checkout-intents`;
    const wrong = [
      { ...request, totalAmount: 2999 },
      {
        ...request,
        totalAmount: 3001,
        terms: [
          { amount: 1000, date: "not a date" },
          { amount: 1000, date: "x" },
        ],
      },
      { ...request, initialAmount: 3000, itemName: "" },
      { ...request, terms: null },
      { ...request, totalAmount: 1000, terms: [{ amount: 1, date: "2026-12-23" }], backUrl: "nope" },
    ];
    for (const body of wrong) {
      const response = await h.send("POST", base, body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { errors: { code: string; message: string }[] };
      expect(error.errors).toHaveLength(1);
      expect(error.errors[0]?.message).toMatch(/^Code : InvalidAmount - totalAmount \(\d+\) must equal/);
    }
    const legal = [
      request,
      { ...request, totalAmount: 1000, terms: null },
      { ...request, totalAmount: 1000, terms: [] },
      { ...request, totalAmount: 1000, initialAmount: 1000, terms: undefined },
      { ...request, totalAmount: 1500, terms: [{ amount: 500, date: "2026-12-23" }] },
    ];
    for (const body of legal) expect((await h.send("POST", base, body)).status).toBe(200);
  });

  it("refuses bad intents with the service's error shapes", async () => {
    const base = `/v5/organizations/${slug}/checkout-intents`;
    const cases: [unknown, number][] = [
      ["{not json", 400],
      [{ ...request, totalAmount: 999 }, 400],
      [{ ...request, itemName: "" }, 400],
      [{ ...request, backUrl: "not a url" }, 400],
      [{ totalAmount: 1 }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await h.send("POST", base, body);
      expect(response.status).toBe(status);
      const error = (await response.json()) as { errors: { code: string }[] };
      expect(contract().schemas.validate("error", error)).toEqual([]);
      if (typeof body !== "string") expect(error.errors.map((e) => e.code)).toContain("Error");
    }
    expect((await h.send("POST", "/v5/organizations/nobody/checkout-intents", request)).status).toBe(404);
    expect((await h.get(`${base}/1`)).status).toBe(404);
    expect((await fetch(`${h.url}/associations/${slug}/checkout/${"0".repeat(32)}`)).status).toBe(404);
  });
});
