import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { type Receiver, receiver } from "../sandbox/helpers.js";
import { type DocumentClient, documentClient } from "./document-client.js";

describe("a client written from the published document alone completes its flows on the sandbox", () => {
  let sandbox: RunningSandbox;
  let client: DocumentClient;
  let hook: Receiver;
  beforeAll(async () => {
    sandbox = await startSandbox({ at: "2025-07-01" as IsoDay, entries: 60 });
    const { admin } = sandbox.credentials;
    client = await documentClient(sandbox.url, admin.clientId, admin.clientSecret);
    hook = await receiver();
  });
  afterAll(async () => {
    await hook.close();
    await sandbox.close();
  });

  it("crawls the items listing and reads order.date, user.firstName, payments[].refundOperations, customFields", async () => {
    const { organizationSlug, formType, formSlug } = sandbox.credentials;
    const items = await client.formItems(organizationSlug, formType, formSlug);
    expect(items).toHaveLength(60);
    for (const item of items) {
      expect(item.order?.date).toBeDefined();
      expect(Number.isNaN(Date.parse(item.order?.date ?? ""))).toBe(false);
      expect(item.user?.firstName).toBeDefined();
      expect(item.payments?.length).toBeGreaterThan(0);
      for (const payment of item.payments ?? []) expect(payment.refundOperations).toBeDefined();
      expect(item.customFields).toBeDefined();
    }
    expect(items.some((i) => i.customFields?.some((f) => f.type === "File"))).toBe(true);
  });

  it("pays a checkout whose terms carry plain dates, and confirms the notified payment through GET /payments/{id}", async () => {
    const registration = await client.notificationUrl(hook.url);
    const slug = sandbox.credentials.organizationSlug;
    const intent = await client.initCheckout(slug, {
      totalAmount: 3000,
      initialAmount: 1000,
      itemName: "Adhésion",
      backUrl: "https://integrator.example/back",
      errorUrl: "https://integrator.example/error",
      returnUrl: "https://integrator.example/return",
      containsDonation: false,
      terms: [
        { amount: 1000, date: "2025-08-01" },
        { amount: 1000, date: "2025-09-01" },
      ],
    });
    // The payer, on the hosted page (the sandbox's test card pays).
    const paid = await fetch(`${intent.redirectUrl}/pay`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ cardNumber: "4242424242424242" }),
    });
    expect(paid.status).toBe(200);
    expect((await client.checkoutIntent(slug, intent.id)).order?.id).toBeTypeOf("number");
    await hook.waitFor(1);
    const notified = hook.received
      .map((r) => ({ ...r, json: JSON.parse(r.body) as { eventType: string; data: { id: number } } }))
      .find((r) => r.json.eventType === "Payment");
    if (!notified) throw new Error("no Payment notification");
    if (registration.signatureKey) {
      const expected = createHmac("sha256", registration.signatureKey).update(notified.body).digest("hex");
      expect(notified.signature).toBe(expected);
    }
    const confirmed = await client.payment(notified.json.data.id);
    expect(confirmed.id).toBe(notified.json.data.id);
    expect(confirmed.state).toBe("Authorized");
    expect(confirmed.amount).toBe(1000);
    expect(confirmed.refundOperations).toEqual([]);
  });
});
