import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, requireChromium } from "../support/chromium.js";
import { day, type Harness, harness, type Receiver, receiver } from "./helpers.js";

describe("sandbox checkout page in a real browser", () => {
  let h: Harness;
  let hook: Receiver;
  let browser: Browser;
  let page: Page;

  const site = (which: string) => `${h.url}/_site/${which}`;
  const createIntent = async () => {
    const response = await h.send(
      "POST",
      `/v5/organizations/${h.sandbox.credentials.organizationSlug}/checkout-intents`,
      {
        totalAmount: 4500,
        initialAmount: 4500,
        itemName: "Inscription tournoi",
        backUrl: site("back"),
        errorUrl: site("error"),
        returnUrl: site("return"),
        containsDonation: false,
      },
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { id: number; redirectUrl: string };
  };

  beforeAll(async () => {
    requireChromium();
    h = await harness({ at: day("2025-07-01"), entries: 5 });
    hook = await receiver();
    await h.state("a partner with a notification URL", { url: hook.url });
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await hook?.close();
    await h?.close();
  });

  it("fails, retries, pays, returns to returnUrl with the order, and notifies", async () => {
    const intent = await createIntent();
    await page.goto(site("cart"));
    await page.goto(intent.redirectUrl);
    await expect(page.locator("#item").textContent()).resolves.toBe("Inscription tournoi");

    for (const attempt of [1, 2]) {
      await page.fill("#cardNumber", "4000 0000 0000 0002");
      await page.click("#submit");
      await page.locator("#attempts", { hasText: new RegExp(`^${attempt}$`) }).waitFor();
      await expect(page.locator("#message").textContent()).resolves.toMatch(/refused/);
      expect(page.url()).toBe(intent.redirectUrl);
    }

    await page.fill("#cardNumber", "4242 4242 4242 4242");
    await page.click("#submit");
    await page.waitForURL((url) => url.pathname === "/_site/return");
    const back = new URL(page.url());
    expect(back.searchParams.get("checkoutIntentId")).toBe(String(intent.id));
    expect(back.searchParams.get("code")).toBe("succeeded");
    const orderId = back.searchParams.get("orderId");
    expect(orderId).toMatch(/^\d+$/);

    await hook.waitFor(2);
    const sent = hook.received.map(
      (r) => JSON.parse(r.body) as { eventType: string; data: { id: number; order?: { id: number } } },
    );
    expect(sent.map((n) => n.eventType)).toEqual(["Payment", "Order"]);
    expect(String(sent[1]?.data.id)).toBe(orderId);
  });

  it("leads the browser's back arrow, even after a failed attempt, and the back link to backUrl", async () => {
    const intent = await createIntent();
    await page.goto(site("cart"));
    await page.goto(intent.redirectUrl);
    await page.fill("#cardNumber", "1234");
    await page.click("#submit");
    await page.locator("#attempts", { hasText: /^1$/ }).waitFor();
    await page.goBack();
    await page.waitForURL(site("back"));
    await expect(page.locator("#page").textContent()).resolves.toBe("back");

    const other = await createIntent();
    await page.goto(other.redirectUrl);
    await page.click("#back");
    await page.waitForURL(site("back"));
  });
});
