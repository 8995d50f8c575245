import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownStates } from "../../sandbox/states.js";
import { contract, crawl, day, type Harness, harness } from "./helpers.js";

describe("sandbox provider states", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-06-15"), entries: 12 });
  });
  afterAll(() => h.close());

  it("implements every state the contract names", () => {
    for (const state of contract().providerStates) expect(knownStates, state.name).toContain(state.name);
  });

  it("sets up every state with the contract's params and answers useful ids", async () => {
    for (const state of contract().providerStates) {
      const result = await h.state(state.name, { ...state.params });
      expect(typeof result, state.name).toBe("object");
      expect(Object.keys(result).length, state.name).toBeGreaterThan(0);
    }
    const entries = await h.state("a form with entries", { count: 45 });
    const items = await h.json<{ data: unknown[]; pagination: { totalCount: number } }>(
      `${entries.itemsPath}?withCount=true&pageSize=100`,
    );
    expect(items.body.data).toHaveLength(45);
    const tokens = await h.state("a form with entries", { count: 45, pageSize: 20 });
    const crawled = await crawl(h, String(tokens.itemsPath), { pageSize: "20" });
    expect(crawled.pages[0]?.pagination.continuationToken).toBe(tokens.secondPageToken);
    expect(crawled.pages.at(-2)?.pagination.continuationToken).toBe(tokens.finalPageToken);
    const final = await h.json<{ data: unknown[]; pagination: { continuationToken: string } }>(
      `${tokens.itemsPath}?pageSize=20&continuationToken=${encodeURIComponent(String(tokens.finalPageToken))}`,
    );
    expect(final.body.data).toEqual([]);
    expect(final.body.pagination.continuationToken).toBe(tokens.finalPageToken);
    const client = await h.state("an API client", { clientId: "pact-client", clientSecret: "pact-secret" });
    const issued = await fetch(`${h.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
    });
    expect(issued.status).toBe(200);
    const intent = await h.state("a checkout intent");
    expect(String(intent.redirectUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/associations\//);
    expect(intent.checkoutIntentId).toEqual(expect.any(Number));
    const association = await h.state("a newly registered association", { organizationSlug: "club-neuf" });
    expect(association).toMatchObject({
      organizationSlug: "club-neuf",
      verified: false,
      registeredOn: "2025-06-15",
    });
  });

  it("lists its states on GET and follows Pact's older {states: [...]} form", async () => {
    const list = await h.json<{ states: { name: string }[] }>("/_states", "none");
    expect(list.body.states.map((s) => s.name)).toEqual(contract().providerStates.map((s) => s.name));
    const response = await h.send(
      "POST",
      "/_states",
      { consumer: "sdk", states: ["a verified association"] },
      "none",
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      organizationSlug: h.sandbox.credentials.organizationSlug,
      verified: true,
    });
  });

  it("seeds a form in an organization of its own, leaving the others' listings as they were", async () => {
    const orders = async () =>
      (await h.json<{ data: unknown[] }>("/v5/organizations/amis-du-bac-a-sable/orders?pageSize=100")).body
        .data.length;
    const before = await orders();
    const seeded = await h.state("a form with entries", { count: 21, organizationSlug: "club-des-bornes" });
    expect(seeded).toMatchObject({ organizationSlug: "club-des-bornes", formSlug: "collecte-21", count: 21 });
    const own = await h.json<{ data: unknown[] }>(`${seeded.itemsPath}?pageSize=100`);
    expect(own.body.data).toHaveLength(21);
    const theirs = await h.json<{ data: unknown[] }>("/v5/organizations/club-des-bornes/orders?pageSize=100");
    expect(theirs.body.data).toHaveLength(21);
    expect(await orders()).toBe(before);
    await h.send("POST", "/_states", { action: "teardown" }, "none");
  });

  it("tears everything down to the seeded start", async () => {
    await h.state("a form with entries", { count: 7 });
    await h.state("a partner with a notification URL");
    await h.state("an order is paid");
    await h.state("an API client", { clientId: "gone", clientSecret: "soon" });
    const teardown = await h.send(
      "POST",
      "/_states",
      { state: "a form with entries", action: "teardown" },
      "none",
    );
    expect(teardown.status).toBe(200);
    expect(
      (await h.get("/v5/organizations/amis-du-bac-a-sable/forms/Donation/collecte-7/items")).status,
    ).toBe(404);
    expect(
      (await h.json<{ urlNotificationList: unknown[] }>("/v5/partners/me")).body.urlNotificationList,
    ).toEqual([]);
    const all = await h.json<{ data: unknown[] }>(
      "/v5/organizations/amis-du-bac-a-sable/orders?pageSize=100",
    );
    expect(all.body.data).toHaveLength(12);
    const gone = await fetch(`${h.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=gone&client_secret=soon",
    });
    expect(gone.status).toBe(401);
  });

  it("accepts Pact's empty state of an interaction without provider state", async () => {
    const response = await h.send("POST", "/_states", { action: "setup", params: {}, state: "" }, "none");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it("logs every notification emitted, signed, even with no URL registered (for message pacts)", async () => {
    await h.send("POST", "/_states", { action: "teardown" }, "none");
    await h.state("a payment is contested");
    const log = await h.json<{
      emitted: { eventType: string; body: string; signature: string; signatureKey: string }[];
      deliveries: unknown[];
    }>("/_notifications", "none");
    expect(log.body.deliveries).toEqual([]);
    const [emitted] = log.body.emitted;
    expect(emitted?.eventType).toBe("PaymentContested");
    expect(emitted?.signature).toBe(
      createHmac("sha256", emitted?.signatureKey ?? "")
        .update(emitted?.body ?? "")
        .digest("hex"),
    );
  });

  it("refuses unknown states and bad params with a clear 400", async () => {
    const cases: unknown[] = [
      { state: "a unicorn", action: "setup" },
      { state: "a form with entries", params: { count: -1 } },
      { state: "a form with entries", params: { count: 1, organizationSlug: "Not A Slug" } },
      { state: "a partner with a notification URL", params: { url: "mailto:me" } },
      { action: "dance", state: "a verified association" },
      {},
      "not json",
    ];
    for (const body of cases) {
      const response = await h.send("POST", "/_states", body, "none");
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(contract().schemas.validate("error", await response.json())).toEqual([]);
    }
  });

  it("refuses a provider-state backUrl of javascript: or data:, so the checkout page never links to one", async () => {
    for (const [name, value] of [
      ["backUrl", "javascript:alert(document.cookie)"],
      ["errorUrl", " JavaScript:alert(1)"],
      ["returnUrl", "data:text/html,<script>alert(1)</script>"],
    ] as const) {
      const response = await h.send(
        "POST",
        "/_states",
        { state: "a checkout intent", params: { [name]: value }, action: "setup" },
        "none",
      );
      expect(response.status, name).toBe(400);
      expect(await response.text()).toContain(`${name} must be an absolute http or https URL`);
    }
    const intent = await h.state("a checkout intent", { backUrl: "https://club.example/retour" });
    const page = await (await fetch(String(intent.redirectUrl))).text();
    expect(page).toContain('href="https://club.example/retour"');
    expect(page.toLowerCase()).not.toContain("javascript:");
  });
});
