import { isIsoDay } from "../core/dates.js";
import { addPaidOrder, createIntent, emitPaid, redirectUrl } from "./checkout.js";
import { emitType, notificationViews, type SandboxCore } from "./core.js";
import { MAX_ENTRIES, PAYMENT_ID_OFFSET, seededPayer } from "./data/generate.js";
import type { CheckoutRequest, FormDef, OrderRecord, Organization, TierDef } from "./data/model.js";
import { START } from "./data/sequence.js";
import { organizationView, paymentView, publicFormView } from "./data/views.js";
import { register } from "./handlers/partners.js";
import { listingScope } from "./listing.js";
import { formatServiceDate } from "./service-dates.js";
import { StateError } from "./store.js";

type Params = Readonly<Record<string, unknown>>;
type Result = Record<string, unknown>;

export { StateError } from "./store.js";

const path = (core: SandboxCore, routeId: string, values: Record<string, string | number>) =>
  core.contract.routes.pathOf(routeId, values);

const text = (params: Params, name: string): string | undefined =>
  typeof params[name] === "string" && params[name] !== "" ? (params[name] as string) : undefined;

/**
 * A URL parameter the checkout page will render as a link or redirect to: an absolute http(s) URL, as
 * the API's own request schema requires (`common.schema.json#/$defs/url`); a `javascript:` or `data:`
 * URL is refused here, so the sandbox's page never holds one.
 */
function pageUrl(params: Params, name: string, otherwise: string): string {
  const value = text(params, name);
  if (value === undefined) return otherwise;
  if (!/^https?:\/\/\S+$/i.test(value)) {
    throw new StateError(`${name} must be an absolute http or https URL (the checkout page links to it)`);
  }
  return value;
}

function paidOrder(core: SandboxCore, withFile: boolean) {
  // The announced form, unless a file is wanted and it has no File field (a data file's own form).
  const announced = core.store.mainForm;
  const hasFile = announced.customFields.some((f) => f.type === "File");
  const form = withFile && !hasFile ? core.store.readyForm : announced;
  const organization = core.store.organization(form.organizationSlug) ?? core.store.mainOrganization;
  const fileField = form.customFields.find((f) => f.type === "File");
  const tier = form.tiers[0] as TierDef;
  const n = core.store.intents.size + core.clock.nowMs();
  return addPaidOrder(core, {
    organization,
    form,
    payer: seededPayer(core.store.seed, 7, n),
    itemName: tier.label,
    itemType: tier.tierType,
    amount: 2500,
    initialAmount: 2500,
    answers: withFile && fileField ? [{ field: fileField, fileId: 4_000_000 + (n % 1_000_000) }] : [],
  });
}

/** The slug of an organization a state makes. */
function newSlug(slug: string): string {
  if (/^[a-z0-9-]{2,80}$/.test(slug)) return slug;
  throw new StateError(`organizationSlug must be lowercase letters, digits and dashes`);
}

function organizationResult(core: SandboxCore, organization: Organization): Result {
  return {
    organizationSlug: organization.slug,
    registeredOn: organization.registeredOn,
    verified: organization.verified,
    checkoutPath: path(core, "v5.checkout-create", { organizationSlug: organization.slug }),
  };
}

/**
 * The organization a seeded form goes to: the main one, else the one named (made, verified, where the
 * sandbox has none of that slug), so that its entries leave every listing of the main one as it was.
 */
function organizationOf(core: SandboxCore, slug: string | undefined): Organization {
  if (slug === undefined) return core.store.mainOrganization;
  const known = core.store.organization(slug);
  if (known) return known;
  return core.store.addOrganization({
    slug: newSlug(slug),
    name: `Association ${slug}`,
    type: "Association1901",
    registeredOn: core.store.mainOrganization.registeredOn,
    verified: true,
  });
}

/**
 * The tokens a clean crawl of a listing (the form's, or its organization's) meets at `pageSize`, newest
 * first: the one leading to the second page and the one leading to the final empty page.
 */
function listingTokens(core: SandboxCore, routeId: string, form: FormDef, pageSize: number) {
  const route = core.contract.routes.all.find((r) => r.id === routeId && r.pagination);
  if (!route) throw new StateError(`listing must name a paginated route of the catalogue, got "${routeId}"`);
  const ofForm = route.path.includes("{formSlug}") ? form : undefined;
  const { organizationSlug, formType, formSlug } = form;
  const scope = listingScope(route, organizationSlug, ofForm);
  const sequence = core.store.sequence(organizationSlug, ofForm);
  const tokenAfter = (page: number) => {
    const last = sequence.slice((page - 1) * pageSize, "desc", pageSize).at(-1);
    const cursor = { afterId: last ? last.id : START.desc, pageIndex: last ? page + 1 : 1 };
    return core.tokens.encode(scope, { direction: "desc", ...cursor });
  };
  return {
    listingPath: path(core, route.id, { organizationSlug, formType, formSlug }),
    secondPageToken: tokenAfter(1),
    finalPageToken: tokenAfter(Math.max(1, Math.ceil(sequence.total / pageSize))),
  };
}

/**
 * An order paid now, and the Payment notification of `typeId` telling its payment changed (`changes`);
 * `result` adds to the state's result.
 */
function paymentChanged(
  core: SandboxCore,
  typeId: string,
  change: (order: OrderRecord) => { changes: Result; result: Result },
): Result {
  const order = paidOrder(core, false);
  const { changes, result } = change(order);
  const data = paymentView(notificationViews(core), order, changes);
  return {
    organizationSlug: order.organization.slug,
    orderId: order.id,
    paymentId: order.payments[0]?.id,
    ...result,
    notifications: emitType(core, typeId, order.organization.slug, data),
  };
}

/** Every provider state the sandbox implements, by the name the contract gives it. */
const setups: Readonly<Record<string, (core: SandboxCore, params: Params) => Result>> = {
  "a form with entries": (core, params) => {
    const count = Number(params.count ?? 45);
    if (!Number.isInteger(count) || count < 0 || count > MAX_ENTRIES) {
      throw new StateError(
        `count must be a whole number from 0 to ${MAX_ENTRIES}, got ${String(params.count)}`,
      );
    }
    const listing = text(params, "listing") ?? "v5.form-items";
    const pages = core.contract.routes.byId("v5.form-items").pagination;
    const pageSize = Number(params.pageSize ?? pages?.defaultPageSize ?? 20);
    const max = pages?.maxPageSize ?? 100;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > max) {
      throw new StateError(
        `pageSize must be a whole number from 1 to ${max}, got ${String(params.pageSize)}`,
      );
    }
    const form = core.store.ensureForm({
      organizationSlug: organizationOf(core, text(params, "organizationSlug")).slug,
      formType: "Donation",
      formSlug: `collecte-${count}`,
      title: `Collecte (${count} dons)`,
      tierName: "Don libre",
      itemType: "Donation",
      priceMin: 500,
      priceMax: 10_000,
      count,
      from: "2024-03-01T08:00:00Z",
      to: "2024-11-30T20:00:00Z",
    });
    const { organizationSlug, formType, formSlug } = form;
    const itemsPath = path(core, "v5.form-items", { organizationSlug, formType, formSlug });
    const tokens = listingTokens(core, listing, form, pageSize);
    return { organizationSlug, formType, formSlug, count, pageSize, itemsPath, ...tokens };
  },
  "the service date": (core, params) => {
    const day = params.day ?? core.clock.day();
    if (typeof day !== "string" || !isIsoDay(day))
      throw new StateError(`day must be a date YYYY-MM-DD, got ${JSON.stringify(day)}`);
    if (core.clock.day() !== day) core.clock.set(day);
    return { day };
  },
  "an access token": (core, params) => {
    const role = params.role ?? "reader";
    if (role !== "reader" && role !== "admin")
      throw new StateError(`role must be "reader" or "admin", got ${JSON.stringify(params.role)}`);
    const client = role === "admin" ? core.auth.admin : core.auth.reader;
    return { accessToken: core.auth.issue(client).access_token, role };
  },
  "an API client": (core, params) => {
    const clientId = text(params, "clientId") ?? "assopay-pact-client";
    const clientSecret = text(params, "clientSecret") ?? "assopay-pact-secret";
    const admin = params.organizationAdmin !== false;
    core.auth.addClient({ id: clientId, secret: clientSecret, rights: admin ? ["organization_admin"] : [] });
    return { clientId, clientSecret, rights: admin ? ["organization_admin"] : [] };
  },
  "an order with an attached file": (core) => {
    const order = paidOrder(core, true);
    const fileId = order.answers.find((a) => a.fileId !== undefined)?.fileId ?? 0;
    const filePath = path(core, "v5.attached-file", { orderId: order.id, fileId });
    return {
      organizationSlug: order.organization.slug,
      orderId: order.id,
      fileId,
      fileUrl: `${core.baseUrl}${filePath}`,
      filePath,
      orderDetailPath: path(core, "v5.order-detail", { orderId: order.id }),
    };
  },
  "a form with custom fields and options and no order": (core) => {
    const { organizationSlug, formType, formSlug } = core.store.membershipForm;
    const publicFormPath = path(core, "v5.public-form", { organizationSlug, formType, formSlug });
    return { organizationSlug, formType, formSlug, publicFormPath };
  },
  "a partner with a notification URL": (core, params) => {
    const slug = text(params, "organizationSlug");
    if (slug !== undefined && !core.store.organization(slug))
      throw new StateError(`no organization "${slug}"`);
    const url = text(params, "url") ?? `${core.baseUrl}/_sink`;
    if (!/^https?:\/\//.test(url)) throw new StateError(`url must be an absolute http(s) URL, got "${url}"`);
    const type = text(params, "notificationType") ?? null;
    const registration = register(core, slug ?? null, url, type);
    return { ...registration, partnerPath: path(core, "v5.partner-info", {}) };
  },
  "an order is paid": (core) => {
    const order = paidOrder(core, false);
    const notifications = emitPaid(core, order);
    const { organizationSlug, formType, formSlug } = order.form;
    return {
      organizationSlug,
      formType,
      formSlug,
      orderId: order.id,
      itemId: order.itemId,
      paymentId: order.payments[0]?.id,
      notifications,
    };
  },
  "a form is updated": (core) => {
    const form = core.store.mainForm;
    const data = publicFormView(notificationViews(core), form, core.store.mainOrganization, true);
    const { organizationSlug, formType, formSlug } = form;
    return {
      organizationSlug,
      formType,
      formSlug,
      notifications: emitType(core, "form", organizationSlug, data),
    };
  },
  "an organization is updated": (core) => {
    const organization = core.store.mainOrganization;
    const notifications = emitType(
      core,
      "organization",
      organization.slug,
      organizationView(notificationViews(core), organization),
    );
    return { organizationSlug: organization.slug, notifications };
  },
  "a refund is refused": (core) =>
    paymentChanged(core, "refund-refused", (order) => {
      const at = formatServiceDate(core.clock.instant(), "service");
      const refundOperationId = order.id + 2 * PAYMENT_ID_OFFSET;
      const refund = { id: refundOperationId, amount: order.amount, amountTip: 0, status: "Refused" };
      const refundOperations = [{ ...refund, meta: { createdAt: at, updatedAt: at } }];
      return { changes: { refundOperations }, result: { refundOperationId } };
    }),
  "a payment is contested": (core) =>
    paymentChanged(core, "payment-contested", () => ({ changes: { state: "Contested" }, result: {} })),
  "a newly registered association": (core, params) => {
    let n = 1;
    while (core.store.organization(`nouvelle-association-${n}`)) n++;
    const slug = newSlug(text(params, "organizationSlug") ?? `nouvelle-association-${n}`);
    const organization = core.store.addOrganization({
      slug,
      name: `Nouvelle association (${slug})`,
      type: "Association1901",
      registeredOn: core.clock.day(),
      verified: false,
    });
    return organizationResult(core, organization);
  },
  "a verified association": (core, params) => {
    const slug = text(params, "organizationSlug") ?? core.store.mainOrganization.slug;
    const found = core.store.organization(slug);
    if (!found) throw new StateError(`no organization "${slug}"`);
    return organizationResult(
      core,
      found.verified ? found : core.store.addOrganization({ ...found, verified: true }),
    );
  },
  "a checkout intent": (core, params) => {
    const slug = text(params, "organizationSlug") ?? core.store.mainOrganization.slug;
    const site = `${core.baseUrl}/_site`;
    const amount = Number(params.totalAmount ?? 1000);
    if (!Number.isSafeInteger(amount)) throw new StateError(`totalAmount must be whole cents, got ${amount}`);
    const request: CheckoutRequest = {
      totalAmount: amount,
      initialAmount: amount,
      itemName: text(params, "itemName") ?? "Adhésion 2025",
      backUrl: pageUrl(params, "backUrl", `${site}/back`),
      errorUrl: pageUrl(params, "errorUrl", `${site}/error`),
      returnUrl: pageUrl(params, "returnUrl", `${site}/return`),
      containsDonation: false,
      metadata: { providerState: "a checkout intent" },
    };
    const created = createIntent(core, slug, request);
    if (!created.ok) throw new StateError(created.message);
    const intent = created.intent;
    return {
      organizationSlug: intent.organizationSlug,
      checkoutIntentId: intent.id,
      redirectUrl: redirectUrl(core, intent),
      expiresAt: new Date(intent.expiresMs).toISOString(),
    };
  },
};

/** Names of the states the sandbox can set up. */
export const knownStates: readonly string[] = Object.keys(setups);

/** Sets a state up; throws `StateError` for an unknown state or bad params. */
export function setUpState(core: SandboxCore, state: string, params: Params): Result {
  const setup = setups[state];
  if (!setup)
    throw new StateError(`unknown provider state "${state}"; known states: ${knownStates.join("; ")}`);
  return setup(core, params);
}

/** Teardown: everything back to the seeded start (data, registrations, notification logs, clock). */
export function tearDown(core: SandboxCore): void {
  core.store.reset();
  core.auth.reset();
  core.notifier.reset();
  core.sink.length = 0;
  core.clock.reset();
}
