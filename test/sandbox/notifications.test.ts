import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contract, day, type Harness, harness, type Receiver, receiver } from "./helpers.js";

const hmac = (body: string, key: string) => createHmac("sha256", key).update(body).digest("hex");

describe("sandbox notifications", () => {
  let h: Harness;
  let hook: Receiver;
  let key: string;
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 10, notificationRetryDelaysMs: [20, 40, 80] });
  });
  beforeEach(async () => {
    await h.send("POST", "/_states", { action: "teardown" }, "none");
    hook?.close();
    hook = await receiver();
    const registered = await h.state("a partner with a notification URL", { url: hook.url });
    key = String(registered.signatureKey);
    const partner = await h.json<{ urlNotificationList: { url: string; signatureKey: string }[] }>(
      "/v5/partners/me",
    );
    expect(partner.body.urlNotificationList).toEqual([{ url: hook.url, signatureKey: key }]);
  });
  afterAll(async () => {
    await hook.close();
    await h.close();
  });

  it("sends signed Payment and Order notifications when an order is paid", async () => {
    const paid = await h.state("an order is paid");
    expect(paid.notifications).toBe(2);
    await hook.waitFor(2);
    const types = hook.received.map((r) => (JSON.parse(r.body) as { eventType: string }).eventType);
    expect(types).toEqual(["Payment", "Order"]);
    for (const r of hook.received) {
      expect(r.signature).toBe(hmac(r.body, key));
      expect(r.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(contract().schemas.validate("notification", JSON.parse(r.body))).toEqual([]);
    }
    const order = JSON.parse(hook.received[1]?.body ?? "{}") as { data: { id: number } };
    expect(order.data.id).toBe(paid.orderId);
  });

  it.each([
    ["a refund is refused", "refund-refused"],
    ["a payment is contested", "payment-contested"],
    ["a form is updated", "form"],
    ["an organization is updated", "organization"],
  ])("emits %s with the contract's event type", async (state, typeId) => {
    const result = await h.state(state);
    expect(result.notifications).toBe(1);
    await hook.waitFor(1);
    const body = JSON.parse(hook.received[0]?.body ?? "{}") as {
      eventType: string;
      data: Record<string, unknown>;
    };
    expect(body.eventType).toBe(contract().notificationTypes.find((t) => t.id === typeId)?.eventType);
    expect(hook.received[0]?.signature).toBe(hmac(hook.received[0]?.body ?? "", key));
    expect(contract().schemas.validate("notification", body)).toEqual([]);
  });

  it("retries a few times on non-2xx and logs each attempt", async () => {
    hook.statusFor = (attempt) => (attempt < 3 ? 503 : 200);
    await h.state("a form is updated");
    await hook.waitFor(3);
    await h.sandbox.core.notifier.settled();
    const log = await h.json<{ deliveries: { attempts: { status: number }[]; state: string }[] }>(
      "/_notifications",
      "none",
    );
    expect(log.body.deliveries[0]?.attempts.map((a) => a.status)).toEqual([503, 503, 200]);
    expect(log.body.deliveries[0]?.state).toBe("delivered");
    hook.statusFor = () => 500;
    await h.state("an organization is updated");
    await h.sandbox.core.notifier.settled();
    const failed = h.sandbox.core.notifier.deliveries().at(-1);
    expect(failed?.attempts).toHaveLength(4);
    expect(failed?.state).toBe("failed");
  });

  it("never blocks an API answer on a receiver that hangs", async () => {
    hook.statusFor = () => "hang";
    await h.state("an order is paid");
    // Answered while the delivery to the receiver that hangs is still under way.
    expect(h.sandbox.core.notifier.deliveries().some((d) => d.state === "pending")).toBe(true);
    expect((await h.get(h.formPath("items"))).status).toBe(200);
  });

  it("delivers to organization-scoped and typed URLs only what matches, and to the built-in sink", async () => {
    await h.send("POST", "/_states", { action: "teardown" }, "none");
    const slug = h.sandbox.credentials.organizationSlug;
    await h.send("PUT", `/v5/partners/me/api-notifications/organizations/${slug}`, {
      url: hook.url,
      notificationType: "Order",
    });
    await h.state("a partner with a notification URL");
    await h.state("an order is paid");
    await hook.waitFor(1);
    await h.sandbox.core.notifier.settled();
    expect(hook.received.map((r) => (JSON.parse(r.body) as { eventType: string }).eventType)).toEqual([
      "Order",
    ]);
    const sink = await h.json<{ received: { body: string; signature: string }[] }>("/_sink", "none");
    expect(sink.body.received).toHaveLength(2);
  });
});
