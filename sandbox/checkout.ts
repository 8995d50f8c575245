import { createHash } from "node:crypto";
import type { Route } from "../contracts/index.js";
import { apiViews, emitType, notificationViews, type RouteHandler, type SandboxCore } from "./core.js";
import { PAYMENT_ID_OFFSET, seededPayer } from "./data/generate.js";
import type { CheckoutIntent, CheckoutRequest, FormDef, OrderRecord, PaymentRecord } from "./data/model.js";
import { orderView, paymentView } from "./data/views.js";
import {
  type Exchange,
  orNotFound,
  readJson,
  type ServiceError,
  sendErrors,
  sendJson,
  sendServiceErrors,
  serviceError,
} from "./http.js";

/** The card number that pays; every other number is refused. */
export const SUCCESS_CARD = "4242424242424242";
/** A card number that is always refused (any number but SUCCESS_CARD is). */
export const REFUSED_CARD = "4000000000000002";
/** Under the `limited-retries` fault, the user is sent to errorUrl after this many failures. */
const FAULT_MAX_FAILURES = 3;

/** The payment window on the sandbox clock: 15 minutes (10 under `short-checkout-window`). */
export function paymentWindowMs(core: SandboxCore): number {
  return (core.fault === "short-checkout-window" ? 10 : 15) * 60_000;
}

/**
 * Creates an intent (its amounts already checked: `readCheckoutRequest`); refuses an unverified new
 * association once verification is required.
 */
export function createIntent(
  core: SandboxCore,
  organizationSlug: string,
  request: CheckoutRequest,
): { ok: true; intent: CheckoutIntent } | { ok: false; status: number; code: string; message: string } {
  const organization = core.store.organization(organizationSlug);
  if (!organization) {
    return {
      ok: false,
      status: 404,
      code: "NotFound",
      message: `No organization with slug "${organizationSlug}".`,
    };
  }
  if (
    core.contract.timeline.inForce("new-association-verification", core.clock.day()) &&
    !organization.verified &&
    core.fault !== "unverified-payments"
  ) {
    const since = core.contract.timeline.entry("new-association-verification")?.date ?? "June 2025";
    return {
      ok: false,
      status: 400,
      code: "OrganizationNotVerified",
      message: `The association "${organization.slug}" (registered on ${organization.registeredOn}) is not verified yet: since ${since} a newly registered association must be verified before it can receive a payment.`,
    };
  }
  const id = core.store.nextIntentId();
  const now = core.clock.nowMs();
  const intent: CheckoutIntent = {
    id,
    key: createHash("sha256")
      .update(core.store.derive(`checkout|${id}|${now}`))
      .digest("hex")
      .slice(0, 32),
    organizationSlug: organization.slug,
    request,
    createdMs: now,
    expiresMs: now + paymentWindowMs(core),
    failedAttempts: 0,
  };
  core.store.intents.set(id, intent);
  return { ok: true, intent };
}

/** The hosted checkout page of an intent. */
export function redirectUrl(core: SandboxCore, intent: CheckoutIntent): string {
  return `${core.baseUrl}/associations/${intent.organizationSlug}/checkout/${intent.key}`;
}

/** `GET …/checkout-intents/{id}`: `order` appears once the payment is authorised. */
export function intentView(core: SandboxCore, intent: CheckoutIntent): Record<string, unknown> {
  const order = intent.orderId === undefined ? undefined : core.store.order(intent.orderId);
  return {
    ...(intent.request.metadata === undefined ? {} : { metadata: intent.request.metadata }),
    ...(order ? { order: orderView(apiViews(core), order) } : {}),
    id: intent.id,
    redirectUrl: redirectUrl(core, intent),
  };
}

/** Where leaving the page leads: backUrl (errorUrl under the `back-to-error-url` fault). */
export function leaveUrl(core: SandboxCore, intent: CheckoutIntent): string {
  return core.fault === "back-to-error-url" ? intent.request.errorUrl : intent.request.backUrl;
}

function withQuery(base: string, values: Record<string, string | number>): string {
  try {
    const url = new URL(base);
    for (const [name, value] of Object.entries(values)) url.searchParams.set(name, String(value));
    return url.toString();
  } catch {
    return base;
  }
}

export type PayOutcome =
  | { outcome: "succeeded" | "already-paid"; redirectUrl: string; message: string }
  | { outcome: "refused"; message: string; failedAttempts: number }
  | { outcome: "gave-up"; redirectUrl: string; message: string }
  | { outcome: "expired"; message: string };

/** The URL the user returns to after paying. */
export function returnUrlOf(intent: CheckoutIntent): string {
  return withQuery(intent.request.returnUrl, {
    checkoutIntentId: intent.id,
    code: "succeeded",
    orderId: intent.orderId ?? 0,
  });
}

/** One payment attempt on the checkout page: any number of failures within the window. */
export function pay(core: SandboxCore, intent: CheckoutIntent, cardNumber: string): PayOutcome {
  if (intent.orderId !== undefined) {
    return {
      outcome: "already-paid",
      redirectUrl: returnUrlOf(intent),
      message: "This payment is already made.",
    };
  }
  if (core.clock.nowMs() >= intent.expiresMs) {
    const minutes = paymentWindowMs(core) / 60_000;
    return { outcome: "expired", message: `The payment window of ${minutes} minutes is over.` };
  }
  if (cardNumber.replace(/[\s-]/g, "") !== SUCCESS_CARD) {
    intent.failedAttempts += 1;
    if (core.fault === "limited-retries" && intent.failedAttempts >= FAULT_MAX_FAILURES) {
      const target = withQuery(intent.request.errorUrl, {
        checkoutIntentId: intent.id,
        error: "TooManyAttempts",
      });
      return { outcome: "gave-up", redirectUrl: target, message: "Too many failed attempts." };
    }
    return {
      outcome: "refused",
      message: "Payment refused by the bank. Check the card details and try again.",
      failedAttempts: intent.failedAttempts,
    };
  }
  const organization = core.store.organization(intent.organizationSlug) ?? core.store.mainOrganization;
  const request = intent.request;
  const fallback = seededPayer(core.store.seed, intent.id);
  const order = addPaidOrder(core, {
    organization,
    form: checkoutForm(core, organization.slug),
    payer: {
      email: request.payer?.email ?? fallback.email,
      firstName: request.payer?.firstName ?? fallback.firstName,
      lastName: request.payer?.lastName ?? fallback.lastName,
      country: request.payer?.country ?? "FRA",
    },
    itemName: request.itemName,
    itemType: request.containsDonation ? "Donation" : "Payment",
    amount: request.totalAmount,
    initialAmount: request.initialAmount,
    ...(request.terms ? { terms: request.terms } : {}),
    checkoutIntentId: intent.id,
    metadata: request.metadata,
  });
  intent.orderId = order.id;
  emitPaid(core, order);
  return { outcome: "succeeded", redirectUrl: returnUrlOf(intent), message: "Payment accepted." };
}

/** What a new paid order is made of. */
export type PaidOrder = Pick<
  OrderRecord,
  "organization" | "form" | "payer" | "itemName" | "itemType" | "amount"
> &
  Partial<Pick<OrderRecord, "answers" | "checkoutIntentId" | "metadata">> & {
    /** The first payment (authorised now); later terms stay pending. */
    initialAmount: number;
    terms?: CheckoutRequest["terms"];
  };

/** The Checkout form of an organization, made on first use (`formType: Checkout, formSlug: default`). */
export function checkoutForm(core: SandboxCore, organizationSlug: string): FormDef {
  return core.store.ensureForm({
    organizationSlug,
    formType: "Checkout",
    formSlug: "default",
    title: "Checkout",
    tierName: "Paiement",
    itemType: "Payment",
    priceMin: 0,
    priceMax: 0,
    from: "2024-01-01T00:00:00Z",
    to: "2024-01-01T00:00:00Z",
  });
}

/** Stores an order paid now. Notifications are the caller's choice (see `emitPaid`). */
export function addPaidOrder(core: SandboxCore, paid: PaidOrder): OrderRecord {
  const at = core.clock.instant();
  return core.store.addOrder((id) => {
    const payments: PaymentRecord[] = [
      {
        id: id + PAYMENT_ID_OFFSET,
        amount: paid.initialAmount,
        at,
        installmentNumber: 1,
        state: "Authorized",
      },
      ...(paid.terms ?? []).map((term, n) => ({
        id: id + PAYMENT_ID_OFFSET + 100_000 * (n + 1),
        amount: term.amount,
        at: { ms: termDateMs(term.date, at.ms), ticks: 0 },
        installmentNumber: n + 2,
        state: "Pending",
      })),
    ];
    return {
      id,
      itemId: id,
      at: { ms: at.ms + 190, ticks: at.ticks },
      organization: paid.organization,
      form: paid.form,
      payer: paid.payer,
      itemName: paid.itemName,
      itemType: paid.itemType,
      initialAmount: paid.amount,
      options: [],
      amount: paid.amount,
      payments,
      answers: paid.answers ?? [],
      cashOutState: "MoneyIn",
      ...(paid.checkoutIntentId === undefined ? {} : { checkoutIntentId: paid.checkoutIntentId }),
      ...(paid.metadata === undefined ? {} : { metadata: paid.metadata }),
    };
  });
}

/** A Payment then an Order notification, as the service sends when an order is paid. */
export function emitPaid(core: SandboxCore, order: OrderRecord): number {
  const views = notificationViews(core);
  const slug = order.organization.slug;
  return (
    emitType(core, "payment", slug, paymentView(views, order), order.metadata) +
    emitType(core, "order", slug, orderView(views, order), order.metadata)
  );
}

const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

/**
 * The amount rule, checked before anything else as the service does: `totalAmount = initialAmount + Σ
 * terms[].amount`. `undefined` when the amounts agree or cannot be summed yet (the schema then speaks).
 */
export function amountMismatch(body: unknown): ServiceError | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { totalAmount, initialAmount, terms } = body as Record<string, unknown>;
  if (!isInteger(totalAmount) || !isInteger(initialAmount)) return undefined;
  const list = terms === undefined || terms === null ? [] : terms;
  if (!Array.isArray(list)) return undefined;
  let sum = initialAmount;
  for (const term of list) {
    const amount = (term as { amount?: unknown } | null)?.amount;
    if (!isInteger(amount)) return undefined;
    sum += amount;
  }
  if (sum === totalAmount) return undefined;
  return serviceError(
    "InvalidAmount",
    `totalAmount (${totalAmount}) must equal initialAmount plus the terms (${sum}).`,
  );
}

/**
 * Reads a checkout intent request: the amounts first, then the route's request schema (which takes a
 * term's date as a plain date or a date-time with or without offset, as the service does). A problem is
 * answered with 400 in the service's error envelope and gives `undefined`.
 */
export async function readCheckoutRequest(
  core: SandboxCore,
  ex: Exchange,
  route: Route,
): Promise<CheckoutRequest | undefined> {
  const parsed = await readJson(ex);
  if (!parsed.ok) return undefined;
  const mismatch = amountMismatch(parsed.value);
  if (mismatch) {
    sendServiceErrors(ex, 400, [mismatch]);
    return undefined;
  }
  const diagnostics = core.contract.schemas.validate(route.requestBody?.schema ?? "", parsed.value, "body");
  if (diagnostics.length > 0) {
    sendServiceErrors(
      ex,
      400,
      diagnostics.map((d) => serviceError("InvalidRequest", d.message)),
    );
    return undefined;
  }
  return parsed.value as CheckoutRequest;
}

/**
 * The instant of a term's date in ms. A plain date is that day at midnight UTC, a date-time without
 * offset is read as UTC; `fallbackMs` when it cannot be read.
 */
export function termDateMs(date: string, fallbackMs: number): number {
  const needsZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(date);
  const ms = Date.parse(needsZone ? `${date}Z` : date);
  return Number.isNaN(ms) ? fallbackMs : ms;
}

/** The checkout intent routes. */
export const checkoutHandlers: Readonly<Record<string, RouteHandler>> = {
  /** `POST /v5/organizations/{organizationSlug}/checkout-intents`. */
  "v5.checkout-create": async (core, ex, call) => {
    const request = await readCheckoutRequest(core, ex, call.rules.route);
    if (!request) return;
    const created = createIntent(core, call.params.organizationSlug ?? "", request);
    if (!created.ok) {
      if (created.status === 400) sendServiceErrors(ex, 400, [serviceError(created.code, created.message)]);
      else sendErrors(ex, created.status, created.code, created.message);
      return;
    }
    sendJson(ex, 200, { id: created.intent.id, redirectUrl: redirectUrl(core, created.intent) });
  },

  /** `GET /v5/organizations/{organizationSlug}/checkout-intents/{checkoutIntentId}`. */
  "v5.checkout-read": (core, ex, call) => {
    const { organizationSlug = "", checkoutIntentId } = call.params;
    const intent = core.store.intents.get(Number(checkoutIntentId));
    const own =
      intent?.organizationSlug.toLowerCase() === organizationSlug.toLowerCase() ? intent : undefined;
    const found = orNotFound(
      ex,
      own,
      `No checkout intent ${checkoutIntentId} in "${call.params.organizationSlug}".`,
    );
    if (found) sendJson(ex, 200, intentView(core, found));
  },
};
