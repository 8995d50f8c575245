import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { contractsDir } from "../../core/paths.js";
import {
  answerState,
  type DiscoveredValues,
  planInteractions,
  stateVariables,
} from "../../specs/pact/discovered-states.js";
import { tokensOf } from "../../specs/pact/discovered-values.js";
import { pactFilesAt } from "../../specs/pact/pact-files.js";
import { listingCrawls } from "./support/listing-server.js";

const listings = listingCrawls();

const walk = (entries: number, pageSize: number, behaviour: "clean" | "ignore-token" = "clean") =>
  listings.crawl(behaviour, {}, { entries, pageSize, token: "t" });

const ALL_FOUND: DiscoveredValues = {
  day: "2025-04-01" as IsoDay,
  accessTokens: { reader: "reader-token", admin: { ok: true, value: "admin-token" } },
  form: { organizationSlug: "org", formType: "Event", formSlug: "gala" },
  listings: new Map(),
  orderWithFile: { ok: true, value: { orderId: "12", fileId: "f-1" } },
  emptyForm: { ok: true, value: { organizationSlug: "org", formType: "Membership", formSlug: "empty" } },
  paidOrder: { ok: true, value: { itemId: "7", paymentId: "8" } },
  checkoutIntent: { ok: true, value: { organizationSlug: "org", checkoutIntentId: "99" } },
  partnerNotificationUrl: { ok: true, value: true },
  unverifiedOrganization: { ok: true, value: "new-org" },
  capturedEvents: new Set(["Order", "Payment", "Form", "Organization", "RefundRefused", "PaymentContested"]),
};

/** The interactions of the era file of a date, from `contracts/pacts/`. */
function interactionsAt(at: string) {
  const [pact] = pactFilesAt(join(contractsDir(), "pacts"), at as IsoDay);
  if (!pact) throw new Error(`no pact file for ${at}`);
  return pact.interactions;
}

describe("the continuation tokens of a listing, from the target's own walk", () => {
  it("gives the first page's token and the one that led to the empty page", async () => {
    const tokens = tokensOf(await walk(25, 10));
    expect(tokens.secondPageToken).toEqual({ ok: true, value: "t10" });
    expect(tokens.finalPageToken).toEqual({ ok: true, value: "t25" });
  });

  it("names why a legal short listing has no second page, and still gives the final token", async () => {
    const tokens = tokensOf(await walk(5, 10));
    expect(tokens.secondPageToken).toMatchObject({ ok: false, reason: expect.stringMatching(/single page/) });
    expect(tokens.finalPageToken).toEqual({ ok: true, value: "t5" });
  });

  it("names a listing ending without a token on its second page", async () => {
    const result = await walk(15, 10);
    const tokens = tokensOf({
      ...result,
      pages: 2,
      stop: { kind: "no-token" },
      tokens: { ...result.tokens, final: undefined },
    });
    expect(tokens.secondPageToken).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/without a token/),
    });
    expect(tokens.finalPageToken).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no token leads/),
    });
  });

  it("hands a broken listing's token to the verifier, so the interaction fails there", async () => {
    const tokens = tokensOf(await walk(25, 10, "ignore-token"));
    expect(tokens.secondPageToken).toEqual({ ok: true, value: "t10" });
    expect(tokens.finalPageToken).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/token-ignored/),
    });
  });
});

describe("provider states answered from discovered values", () => {
  it("answers each state with the values its generators read", () => {
    expect(answerState(ALL_FOUND, "an access token", { role: "admin" })).toMatchObject({
      values: { accessToken: "admin-token" },
    });
    expect(answerState(ALL_FOUND, "an access token", { role: "reader" })).toMatchObject({
      values: { accessToken: "reader-token" },
    });
    expect(answerState(ALL_FOUND, "the service date", { day: "2025-03-15" })).toMatchObject({
      values: { day: "2025-04-01" },
    });
    expect(answerState(ALL_FOUND, "an order with an attached file", {})).toMatchObject({
      values: { orderId: "12", fileId: "f-1" },
    });
    expect(answerState(ALL_FOUND, "a newly registered association", {})).toMatchObject({
      values: { organizationSlug: "new-org" },
    });
  });

  it("refuses what it cannot answer, with the flag that would answer it", () => {
    const noAdmin: DiscoveredValues = {
      ...ALL_FOUND,
      accessTokens: { reader: "r", admin: { ok: false, reason: "no admin (--admin-client-id)" } },
    };
    expect(answerState(noAdmin, "an access token", { role: "admin" })).toEqual({
      ok: false,
      reason: "no admin (--admin-client-id)",
    });
    expect(answerState(ALL_FOUND, "an API client", {})).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/--state-url/),
    });
    expect(answerState(ALL_FOUND, "a state nobody knows", {})).toMatchObject({ ok: false });
  });

  it("keeps every interaction whose states are answered and that changes nothing on the target", () => {
    const interactions = interactionsAt("2025-06-01");
    const { kept, skipped } = planInteractions(ALL_FOUND, interactions);
    // The listings' tokens are missing from ALL_FOUND: the next and final pages are left out for that.
    const pages = skipped.filter((s) => /PageToken: .* was not walked/.test(s.reason));
    expect(pages.length).toBeGreaterThanOrEqual(20);
    const others = skipped.filter((s) => !pages.includes(s));
    expect(others.map((s) => s.description.replace(/ \(as of .*\)$/, "")).sort()).toEqual([
      "notification URL registration for one organization: answers the URL and its signing key",
      "notification URL registration: answers the URL and its signing key",
      "notification URL removal (partner-wide)",
      "notification URL removal for one organization",
      "order cancellation: answers success",
      "payment refund: answers the refund operation",
      "token: client_credentials grant",
    ]);
    expect(kept.length + skipped.length).toBe(interactions.length);
    for (const interaction of kept) {
      for (const name of stateVariables(interaction)) expect(name).not.toMatch(/PageToken/);
    }
  });

  it("leaves out what a missing value or an uncaught notification would need, naming why", () => {
    const scarce: DiscoveredValues = {
      ...ALL_FOUND,
      accessTokens: { reader: "r", admin: { ok: false, reason: "no organization_admin client was given" } },
      orderWithFile: { ok: false, reason: "no attached file; name one with --order-id" },
      capturedEvents: new Set(["Order"]),
    };
    const { skipped } = planInteractions(scarce, interactionsAt("2025-04-01"));
    const reasonOf = (start: string) => skipped.find((s) => s.description.startsWith(start))?.reason;
    expect(reasonOf("order detail")).toMatch(/no organization_admin client/);
    expect(reasonOf("attached file: refused without a token")).toMatch(/no orderId: .*--order-id/);
    expect(reasonOf("a Payment notification")).toMatch(/no Payment notification/);
    expect(reasonOf("a Order notification")).toBeUndefined();
  });
});
