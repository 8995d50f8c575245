import { randomBytes } from "node:crypto";
import type { CheckContext } from "../runner/context.js";
import { type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import { stateString } from "../runner/states.js";

/** Where the integrator's site would take the user back: unique per run, never fetched. */
export function integratorUrls() {
  const run = randomBytes(6).toString("hex");
  const site = "https://integrator.example/assopay";
  return {
    backUrl: `${site}/back?run=${run}`,
    errorUrl: `${site}/error?run=${run}`,
    returnUrl: `${site}/return?run=${run}`,
  };
}

export type CheckoutFixture =
  | {
      ok: true;
      organizationSlug: string;
      checkoutIntentId: string;
      redirectUrl: string;
      urls: ReturnType<typeof integratorUrls>;
    }
  | { ok: false; reason: string };

type Created = (Extract<CheckoutFixture, { ok: true }> | { ok: false; reason: string }) & {
  exchange: HttpExchange;
};

/** `POST …/checkout-intents` for an organization, with the given return addresses. */
export async function createCheckoutIntent(
  ctx: CheckContext,
  organizationSlug: string,
  urls: ReturnType<typeof integratorUrls>,
): Promise<Created> {
  const exchange = await ctx.http.send({
    method: "POST",
    url: await ctx.urlOf(ctx.contract.routes.byId("v5.checkout-create"), { organizationSlug }),
    authorization: await ctx.authorization("reader"),
    body: {
      contentType: "application/json",
      text: JSON.stringify({
        totalAmount: 1000,
        initialAmount: 1000,
        itemName: "assopay verify",
        ...urls,
        containsDonation: false,
        payer: { firstName: "Ada", lastName: "Verify", email: "ada.verify@example.org", country: "FRA" },
        metadata: { assopay: "verify" },
      }),
    },
  });
  const parsed = isSuccess(exchange.status) ? parseJson(exchange) : undefined;
  const body = (parsed?.ok ? parsed.value : undefined) as { id?: unknown; redirectUrl?: unknown } | undefined;
  if (
    !body ||
    (typeof body.id !== "number" && typeof body.id !== "string") ||
    typeof body.redirectUrl !== "string"
  ) {
    return {
      ok: false,
      reason: `creating a checkout intent for ${organizationSlug} answered ${exchange.status}`,
      exchange,
    };
  }
  return {
    ok: true,
    organizationSlug,
    checkoutIntentId: String(body.id),
    redirectUrl: body.redirectUrl,
    urls,
    exchange,
  };
}

export type VerifiedOrganization = { ok: true; organizationSlug: string } | { ok: false; reason: string };

/**
 * An association that takes payments ("a verified association"), set up once per run. Without states,
 * the organization verify reads (`--organization`): an integrator's own association takes payments.
 */
export function verifiedOrganization(ctx: CheckContext): Promise<VerifiedOrganization> {
  return ctx.memo.get<VerifiedOrganization>("fixture:verified-association", async () => {
    if (!ctx.states) return { ok: true, organizationSlug: (await ctx.coordinates()).organizationSlug };
    const answer = await ctx.states.setup("a verified association");
    if (!answer.ok) return { ok: false, reason: answer.reason };
    const where = await ctx.coordinates();
    return {
      ok: true,
      organizationSlug: stateString(answer.values, "organizationSlug") ?? where.organizationSlug,
    };
  });
}

/** A fresh checkout intent of a verified association (not memoised: paying uses it up). */
export async function freshIntent(ctx: CheckContext): Promise<CheckoutFixture> {
  const organization = await verifiedOrganization(ctx);
  if (!organization.ok) return organization;
  const created = await createCheckoutIntent(ctx, organization.organizationSlug, integratorUrls());
  if (!created.ok) return { ok: false, reason: created.reason };
  const { exchange: _, ...intent } = created;
  return intent;
}

/** One intent per run for reading back (the schemas check). */
export function checkoutFixture(ctx: CheckContext): Promise<CheckoutFixture> {
  return ctx.memo.get("fixture:checkout-intent", () => freshIntent(ctx));
}
