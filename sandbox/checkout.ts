import { createHash } from "node:crypto";
import type { DatedRules } from "../contracts/index.js";
import { apiViews, type SandboxCore } from "./core.js";
import { seededPayer } from "./data/generate.js";
import type { CheckoutIntent, CheckoutRequest } from "./data/model.js";
import { orderView } from "./data/views.js";
import { addPaidOrder, checkoutForm, emitPaid } from "./payments.js";

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

export type CreateOutcome =
  | { ok: true; intent: CheckoutIntent }
  | { ok: false; status: number; code: string; message: string };

/** Creates an intent; refuses an unverified new association once verification is required. */
export function createIntent(
  core: SandboxCore,
  organizationSlug: string,
  request: CheckoutRequest,
  rules: DatedRules,
): CreateOutcome {
  const organization = core.store.organization(organizationSlug);
  if (!organization) {
    return {
      ok: false,
      status: 404,
      code: "NotFound",
      message: `No organization with slug "${organizationSlug}".`,
    };
  }
  const terms = request.terms ?? [];
  const sum = request.initialAmount + terms.reduce((total, term) => total + term.amount, 0);
  if (sum !== request.totalAmount) {
    const message = `totalAmount (${request.totalAmount}) must equal initialAmount plus the terms (${sum}).`;
    return { ok: false, status: 400, code: "InvalidAmount", message };
  }
  if (
    rules.newAssociationsNeedVerification &&
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

export function findIntentByKey(
  core: SandboxCore,
  organizationSlug: string,
  key: string,
): CheckoutIntent | undefined {
  for (const intent of core.store.intents.values()) {
    if (intent.key === key && intent.organizationSlug.toLowerCase() === organizationSlug.toLowerCase())
      return intent;
  }
  return undefined;
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
