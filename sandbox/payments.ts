import { termDateMs } from "./checkout-request.js";
import { emitType, notificationViews, type SandboxCore } from "./core.js";
import { PAYMENT_ID_OFFSET } from "./data/generate.js";
import type { Answer, FormDef, OrderRecord, Organization, Payer, PaymentRecord } from "./data/model.js";
import { orderView, paymentView } from "./data/views.js";

/** What a new paid order is made of. */
export interface PaidOrder {
  organization: Organization;
  form: FormDef;
  payer: Payer;
  itemName: string;
  itemType: string;
  amount: number;
  /** The first payment (authorised now); later terms stay pending. */
  initialAmount: number;
  terms?: readonly { amount: number; date: string }[];
  answers?: readonly Answer[];
  checkoutIntentId?: number;
  metadata?: unknown;
}

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
    count: 0,
    from: "2024-01-01T00:00:00Z",
    to: "2024-01-01T00:00:00Z",
    fileEvery: 0,
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
