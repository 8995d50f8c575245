import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedCounts, type Route } from "../../contracts/index.js";
import { contract, crawl, DATES, day, type Harness, harness, type Page } from "./helpers.js";

const ENTRIES = 45;

function pathOf(h: Harness, route: Route): string {
  const c = h.sandbox.credentials;
  return route.path
    .replace("{organizationSlug}", c.organizationSlug)
    .replace("{formType}", c.formType)
    .replace("{formSlug}", c.formSlug);
}

describe.each(DATES)("sandbox on %s", (date) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day(date), entries: ENTRIES });
  });
  afterAll(() => h.close());

  it("answers each listing route as the timeline says (served, result array, counts per withCount)", async () => {
    for (const route of contract().routes.listings()) {
      const rules = contract().timeline.datedRulesAt(route, day(date));
      const path = pathOf(h, route);
      const response = await h.get(path);
      if (!rules.served) {
        expect(response.status, `${route.id} on ${date}`).toBe(404);
        expect(contract().schemas.validate("error", await response.json())).toEqual([]);
        continue;
      }
      expect(response.status, `${route.id} on ${date}`).toBe(200);
      for (const [query, withCount] of [
        ["", undefined],
        ["?withCount=true", true],
        ["?withcount=True", true],
        ["?WithCount=false", false],
      ] as const) {
        const { status, body } = await h.json<Page>(`${path}${query}`);
        expect(status).toBe(200);
        const counts = expectedCounts(rules, rules.withCountParam ? withCount : undefined);
        expect(
          contract().schemas.validatePage(route, body, counts),
          `${route.id}${query} on ${date}`,
        ).toEqual([]);
        const result = route.pagination?.resultArray ?? "data";
        expect(Array.isArray((body as unknown as Record<string, unknown>)[result])).toBe(true);
        if (counts === "absent") {
          expect("totalCount" in body.pagination).toBe(false);
          expect("totalPages" in body.pagination).toBe(false);
        }
        if (counts === "real") {
          expect(body.pagination.totalCount).toBe(ENTRIES);
          expect(body.pagination.totalPages).toBe(Math.ceil(ENTRIES / 20));
        }
        if (counts === "minus-one") {
          expect(body.pagination.totalCount).toBe(-1);
          expect(body.pagination.totalPages).toBe(-1);
        }
      }
    }
  });

  it("crawls the seed's v5 route to the end with totals that agree with the crawl when real", async () => {
    const route = contract().routes.byId("v5.form-items");
    const { ids, pages, ended } = await crawl(h, pathOf(h, route), { withCount: "true", pageSize: "10" });
    expect(ended).toBe(true);
    expect(new Set(ids).size).toBe(ENTRIES);
    const counts = expectedCounts(contract().timeline.datedRulesAt(route, day(date)), true);
    if (counts === "real") expect(pages[0]?.pagination.totalCount).toBe(ids.length);
  });

  it("serves every v5 route, whatever the v3 switch-off", async () => {
    const order = await h.state("an order with an attached file");
    const intent = await h.state("a checkout intent");
    const c = h.sandbox.credentials;
    const paths = [
      `/v5/organizations/${c.organizationSlug}/forms/Membership/adhesion-2025/public`,
      String(order.orderDetailPath),
      String(order.filePath),
      "/v5/partners/me",
      `/v5/organizations/${c.organizationSlug}/checkout-intents/${intent.checkoutIntentId}`,
    ];
    for (const path of paths) expect((await h.get(path)).status, path).toBe(200);
    const put = await h.send("PUT", "/v5/partners/me/api-notifications", { url: `${h.url}/_sink` });
    expect(put.status).toBe(200);
    await h.send("POST", "/_states", { action: "teardown" }, "none");
  });

  it("follows the verification of new associations", async () => {
    const created = await h.state("a newly registered association");
    const body = {
      totalAmount: 1000,
      initialAmount: 1000,
      itemName: "Adhésion",
      backUrl: "https://example.org/back",
      errorUrl: "https://example.org/error",
      returnUrl: "https://example.org/return",
      containsDonation: false,
    };
    const fresh = await h.send("POST", String(created.checkoutPath), body);
    const old = await h.send(
      "POST",
      `/v5/organizations/${h.sandbox.credentials.organizationSlug}/checkout-intents`,
      body,
    );
    expect(old.status).toBe(200);
    const needs = contract().timeline.inForce("new-association-verification", day(date));
    expect(fresh.status).toBe(needs ? 400 : 200);
    if (needs) {
      const error = (await fresh.json()) as { errors: { code: string; message: string }[] };
      expect(error.errors[0]?.code).toBe("Error");
      expect(error.errors[0]?.message).toMatch(/^Code : OrganizationNotVerified - /);
      expect(error.errors[0]?.message).toMatch(/must be verified before it can receive a payment/);
      await h.state("a verified association", { organizationSlug: created.organizationSlug });
      expect((await h.send("POST", String(created.checkoutPath), body)).status).toBe(200);
    }
    await h.send("POST", "/_states", { action: "teardown" }, "none");
  });
});

describe("the sandbox clock follows POST /_clock", () => {
  it("switches rules when the day changes, and teardown brings the start day back", async () => {
    const h = await harness({ at: day("2025-06-29"), entries: 5 });
    try {
      const v3 = `/v3/organizations/${h.sandbox.credentials.organizationSlug}/items`;
      expect((await h.get(v3)).status).toBe(200);
      await h.clock({ advanceMinutes: 24 * 60 });
      expect((await h.json<{ day: string }>("/_clock", "none")).body.day).toBe("2025-06-30");
      expect((await h.get(v3)).status).toBe(404);
      await h.send("POST", "/_states", { action: "teardown" }, "none");
      expect((await h.get(v3)).status).toBe(200);
      await h.clock({ day: "2026-01-01" });
      expect((await h.get(v3)).status).toBe(404);
      await h.clock({ reset: true });
      expect((await h.json<{ day: string }>("/_clock", "none")).body.day).toBe("2025-06-29");
      expect((await h.send("POST", "/_clock", { advance: "soon" }, "none")).status).toBe(400);
    } finally {
      await h.close();
    }
  });
});
