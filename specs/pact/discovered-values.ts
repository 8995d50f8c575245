import { checkoutFixture } from "../checkout/checkout-fixture.js";
import { readPartner } from "../notifications/registration.js";
import { readPublicForm } from "../public-form/public-form-fixture.js";
import { orderFixture } from "../rights/order-fixture.js";
import type { CheckContext, FormPlace } from "../runner/context.js";
import { type CrawlResult, endedLegally } from "../runner/crawler.js";
import { entryId, sampleListing } from "../runner/discovery.js";
import { noAdminReason } from "../runner/tokens.js";
import {
  type DiscoveredValues,
  type Found,
  type ListingTokens,
  stateVariables,
} from "./discovered-states.js";
import type { PactInteraction } from "./pact-files.js";

const missing = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** The second-page and final-page tokens of a listing, from the target's own walk of it. */
export function tokensOf(result: CrawlResult): ListingTokens {
  const id = result.route.id;
  const legal = endedLegally(result.stop);
  const first = result.tokens.first;
  const onePage = `${id} gave no continuation token on its first page (${result.entries} entries: one page)`;
  let second: Found<string>;
  if (first === undefined)
    second = missing(legal ? onePage : `the crawl of ${id} stopped: ${result.stop.kind}`);
  else if (!legal || result.pages >= 3) second = { ok: true, value: first };
  else if (result.stop.kind === "no-token")
    second = missing(`${id} ends on its second page without a token (the pact's second page carries one)`);
  else second = missing(`${id} has a single page of entries (${result.entries})`);
  const final: Found<string> =
    result.tokens.final !== undefined
      ? { ok: true, value: result.tokens.final }
      : first === undefined && legal
        ? missing(onePage)
        : missing(
            legal
              ? `${id} ends on a non-empty page without a token, so no token leads to an empty final page`
              : `the crawl of ${id} did not reach an empty final page (${result.stop.kind})`,
          );
  return { secondPageToken: second, finalPageToken: final };
}

/** `/v5/orders/{orderId}/files/{fileId}` of an attached file's URL. */
function fileIds(url: string): { orderId: string; fileId: string } | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const match = /^\/v5\/orders\/([^/]+)\/files\/([^/]+)$/.exec(path);
  if (!match?.[1] || !match[2]) return undefined;
  return { orderId: decodeURIComponent(match[1]), fileId: decodeURIComponent(match[2]) };
}

async function orderWithFile(ctx: CheckContext): Promise<DiscoveredValues["orderWithFile"]> {
  const fixture = await orderFixture(ctx);
  if (!fixture.ok) return fixture;
  const url = fixture.fileUrls[0];
  if (url === undefined)
    return missing(
      fixture.source === "order-id"
        ? `the detail of --order-id ${fixture.orderId} gives no attached file`
        : fixture.note,
    );
  const ids = fileIds(url);
  if (!ids)
    return missing(`the attached file's URL ${url} is not /v5/orders/{orderId}/files/{fileId} of the target`);
  return { ok: true, value: ids };
}

async function emptyForm(ctx: CheckContext): Promise<Found<FormPlace>> {
  const read = await readPublicForm(ctx);
  if ("missing" in read.empty) return missing(read.empty.missing);
  const { organizationSlug } = await ctx.coordinates();
  return { ok: true, value: { organizationSlug, ...read.empty.read.form } };
}

/** An item of the form and its first payment (what the item and payment detail interactions read). */
async function paidOrder(ctx: CheckContext): Promise<DiscoveredValues["paidOrder"]> {
  const url = await ctx.urlOf(ctx.contract.routes.byId("v5.form-items"));
  const sample = await sampleListing(ctx, url, 1, await ctx.authorization("reader"));
  const entry = sample.entries[0];
  const itemId = entry ? entryId(entry) : undefined;
  if (!entry || itemId === undefined)
    return missing(`the items of the form gave no item (${sample.exchange.status}): give a form with orders`);
  const payments = Array.isArray(entry.payments) ? (entry.payments as Record<string, unknown>[]) : [];
  const payment = payments[0];
  return { ok: true, value: { itemId, paymentId: payment ? entryId(payment) : undefined } };
}

async function checkoutIntent(ctx: CheckContext): Promise<DiscoveredValues["checkoutIntent"]> {
  const intent = await checkoutFixture(ctx);
  if (!intent.ok) return missing(intent.reason);
  return {
    ok: true,
    value: { organizationSlug: intent.organizationSlug, checkoutIntentId: intent.checkoutIntentId },
  };
}

async function partnerUrl(ctx: CheckContext): Promise<Found<true>> {
  const { exchange, list } = await readPartner(ctx);
  if (list.length > 0) return { ok: true, value: true };
  return missing(
    `partner information lists no notification URL on the target (${exchange.status}): register one for the partner`,
  );
}

/** What the interactions' states name: state names, and the listings whose tokens a request sends. */
function needs(interactions: readonly PactInteraction[]) {
  const states = new Set<string>();
  const listings = new Set<string>();
  for (const interaction of interactions) {
    const walks = stateVariables(interaction).some((name) => name.endsWith("PageToken"));
    for (const state of interaction.providerStates ?? []) {
      states.add(state.name);
      if (walks && state.name === "a form with entries")
        listings.add(typeof state.params?.listing === "string" ? state.params.listing : "v5.form-items");
    }
  }
  return { states, listings };
}

/** A value found only when a state needs it; otherwise a reason no interaction will read. */
async function when<T>(needed: boolean, find: () => Promise<Found<T>>): Promise<Found<T>> {
  return needed ? find() : missing("not needed by these interactions");
}

/**
 * Finds, through the target's public API and what the run already read, the values the interactions'
 * provider states would answer: tokens of the given clients, the given organization and form, the
 * listings' own continuation tokens, the order and empty form the other checks found, a checkout intent.
 */
export async function discoverValues(
  ctx: CheckContext,
  interactions: readonly PactInteraction[],
  capturedEvents: ReadonlySet<string>,
): Promise<DiscoveredValues> {
  const { states, listings } = needs(interactions);
  const where = await ctx.coordinates();
  const tokens = new Map<string, ListingTokens>();
  for (const id of listings) {
    const route = ctx.contract.routes.all.find((r) => r.id === id && r.pagination);
    // Walked as the pact's requests walk it: no `pageSize`, no `withCount`.
    if (route) tokens.set(id, tokensOf(await ctx.crawl(route, "unpaged")));
  }
  const admin = noAdminReason(ctx.options.auth);
  const unverified = ctx.options.unverifiedOrg;
  return {
    day: ctx.at,
    accessTokens: {
      reader: await ctx.tokens.token("reader"),
      admin: ctx.tokens.has("admin") ? { ok: true, value: await ctx.tokens.token("admin") } : missing(admin),
    },
    form: { organizationSlug: where.organizationSlug, formType: where.formType, formSlug: where.formSlug },
    listings: tokens,
    orderWithFile: await when(states.has("an order with an attached file"), () => orderWithFile(ctx)),
    emptyForm: await when(states.has("a form with custom fields and options and no order"), () =>
      emptyForm(ctx),
    ),
    paidOrder: await when(states.has("an order is paid"), () => paidOrder(ctx)),
    checkoutIntent: await when(states.has("a checkout intent"), () => checkoutIntent(ctx)),
    partnerNotificationUrl: await when(states.has("a partner with a notification URL"), () =>
      partnerUrl(ctx),
    ),
    unverifiedOrganization:
      unverified === undefined
        ? missing("no newly registered association was named (--unverified-org)")
        : { ok: true, value: unverified },
    capturedEvents,
  };
}
