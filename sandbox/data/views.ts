import { type DateStyle, formatServiceDate, type ServiceInstant } from "../service-dates.js";
import type { Answer, DonationRecord, FormDef, OrderRecord, PaymentRecord, TierDef } from "./model.js";

/** The name of a donation item (the label of a form's donation tier). */
export const DONATION_NAME = "Don libre";

/** What every JSON view needs to know besides the record. */
export interface ViewContext {
  baseUrl: string;
  dateStyle: DateStyle;
  /** The URL of an attached file (from the contract's file route). */
  fileUrl(orderId: number, fileId: number): string;
  /** False under the `no-file-urls` fault: order detail leaves out the File custom fields. */
  exposeFiles: boolean;
  /** Whose shape wins where the seed and the published document disagree (`seed` by default). */
  shapes: Shapes;
}

/**
 * `seed`: where the seed and the provider's document disagree on a field, the seed's shape (the default);
 * `document`: the document's shape, for clients written against the live service.
 *
 * @example
 * startSandbox({ shapes: "document" }); // items-listing entries carry `amount` as integer cents
 */
export type Shapes = "seed" | "document";

type Json = Record<string, unknown>;

const FORM_PATHS: Readonly<Record<string, string>> = {
  Event: "evenements",
  Membership: "adhesions",
  Donation: "formulaires",
  Checkout: "checkout",
  Shop: "boutiques",
  CrowdFunding: "collectes",
  PaymentForm: "paiements",
};

const shift = (instant: ServiceInstant, ms: number): ServiceInstant => ({
  ms: instant.ms + ms,
  ticks: (instant.ticks * 31 + 17) % 10_000,
});

function date(ctx: ViewContext, instant: ServiceInstant): string {
  return formatServiceDate(instant, ctx.dateStyle);
}

function meta(ctx: ViewContext, instant: ServiceInstant): Json {
  return { createdAt: date(ctx, shift(instant, -25_000)), updatedAt: date(ctx, shift(instant, 70)) };
}

/** The tier an order's main item was bought on. */
export function tierOf(record: OrderRecord): TierDef {
  return record.tier ?? (record.form.tiers[0] as TierDef);
}

/**
 * An item's `amount` as the provider's document defines it: "after discount without extra options", so
 * the tier's part alone. The options are listed beside it, each with its own amount; the item's share of
 * a payment (`shareAmount`) and the order's total include them, so the amounts still add up.
 */
export function itemAmount(record: OrderRecord): number {
  return record.options.reduce((left, option) => left - option.price, record.amount);
}

/** What the order costs: its item plus the donation added to it, if any. */
export function orderTotal(record: OrderRecord): number {
  return record.amount + (record.donation?.amount ?? 0);
}

/**
 * How a payment splits over the order's items (the document's `shareAmount`). An order with a donation
 * is paid at once, so each item's share is its amount; otherwise the one item takes the whole payment.
 */
export function itemShares(record: OrderRecord, payment: PaymentRecord): { id: number; share: number }[] {
  if (!record.donation) return [{ id: record.itemId, share: payment.amount }];
  return [
    { id: record.itemId, share: record.amount },
    { id: record.donation.itemId, share: record.donation.amount },
  ];
}

/** The public page of a form, as the service links to it. */
export function formUrl(ctx: ViewContext, form: FormDef): string {
  return `${ctx.baseUrl}/associations/${form.organizationSlug}/${FORM_PATHS[form.formType] ?? "formulaires"}/${form.formSlug}`;
}

function receiptUrl(ctx: ViewContext, record: OrderRecord): string {
  return `${formUrl(ctx, record.form)}/paiement-attestation/${record.id}`;
}

/** `answers`: File answers (the file's URL) only with `withFiles`, and only when files are exposed. */
export function customFieldAnswers(ctx: ViewContext, record: OrderRecord, withFiles: boolean): Json[] {
  const views: Json[] = [];
  for (const answer of record.answers as Answer[]) {
    const base = { id: answer.field.id, name: answer.field.label, type: answer.field.type };
    if (answer.fileId !== undefined) {
      if (withFiles && ctx.exposeFiles)
        views.push({ ...base, answer: ctx.fileUrl(record.id, answer.fileId) });
    } else {
      views.push({ ...base, answer: answer.answer ?? "" });
    }
  }
  return views;
}

/** The `order` object a payment points at (OrderLight). */
export function orderLightView(ctx: ViewContext, record: OrderRecord): Json {
  return {
    id: record.id,
    date: date(ctx, record.at),
    formSlug: record.form.formSlug,
    formType: record.form.formType,
    organizationName: record.organization.name,
    organizationSlug: record.organization.slug,
    organizationType: record.organization.type,
    organizationIsUnderColucheLaw: false,
    ...(record.checkoutIntentId === undefined ? {} : { checkoutIntentId: record.checkoutIntentId }),
    formName: record.form.title,
    meta: meta(ctx, record.at),
    isAnonymous: false,
    isAmountHidden: false,
  };
}

/** The fields every view of a payment gives the same way, in the document's order. */
function paymentFields(ctx: ViewContext, payment: PaymentRecord): Json {
  return {
    id: payment.id,
    amount: payment.amount,
    date: date(ctx, payment.at),
    paymentMeans: "Card",
    installmentNumber: payment.installmentNumber,
    state: payment.state,
  };
}

/** The refund operations of a payment (RefundOperationLightModel). */
export function refundOperationsView(ctx: ViewContext, payment: PaymentRecord): Json[] {
  return (payment.refundOperations ?? []).map((refund) => ({
    id: refund.id,
    amount: refund.amount,
    amountTip: 0,
    status: refund.state,
    meta: meta(ctx, refund.at),
  }));
}

/** A payment inside an order or an item (the document's ItemPayment, with the share of the item). */
export function orderPaymentView(ctx: ViewContext, record: OrderRecord, payment: PaymentRecord): Json {
  const settled = payment.state !== "Pending";
  return {
    items: itemShares(record, payment).map(({ id, share }) => ({
      id,
      shareAmount: share,
      shareItemAmount: share,
    })),
    ...(settled ? { cashOutState: record.cashOutState, paymentReceiptUrl: receiptUrl(ctx, record) } : {}),
    ...paymentFields(ctx, payment),
    ...(settled ? { meta: meta(ctx, payment.at) } : {}),
    refundOperations: refundOperationsView(ctx, payment),
  };
}

/** The share of one item in one payment. */
export function shareOf(record: OrderRecord, payment: PaymentRecord, itemId: number): number {
  return itemShares(record, payment).find((s) => s.id === itemId)?.share ?? 0;
}

/** The donation item of an order, as the order lists its items. */
function orderDonationItem(record: OrderRecord, donation: DonationRecord): Json {
  const { firstName, lastName } = record.payer;
  return {
    payments: record.payments.map((p) => ({ id: p.id, shareAmount: shareOf(record, p, donation.itemId) })),
    name: DONATION_NAME,
    user: { firstName, lastName },
    priceCategory: "Pwyw",
    customFields: [],
    options: [],
    tierId: donation.tierId,
    id: donation.itemId,
    amount: donation.amount,
    type: "Donation",
    initialAmount: donation.amount,
    state: record.canceled ? "Canceled" : "Processed",
  };
}

/** An order (listings), or an order detail with the URL of each attached file (`detail`). */
export function orderView(ctx: ViewContext, record: OrderRecord, detail = false): Json {
  const { firstName, lastName } = record.payer;
  const light = orderLightView(ctx, record);
  return {
    payer: { ...record.payer },
    items: [
      {
        payments: record.payments.map((p) => ({ id: p.id, shareAmount: shareOf(record, p, record.itemId) })),
        name: record.itemName,
        user: { firstName, lastName },
        priceCategory: tierOf(record).priceCategory,
        customFields: customFieldAnswers(ctx, record, detail),
        options: record.options.map((o) => ({ name: o.label, amount: o.price, optionId: o.id })),
        qrCode: Buffer.from(`${record.itemId}:${record.at.ms}`).toString("base64"),
        tierId: tierOf(record).id,
        id: record.itemId,
        amount: itemAmount(record),
        type: record.itemType,
        initialAmount: record.initialAmount,
        state: record.canceled ? "Canceled" : "Processed",
      },
      ...(record.donation ? [orderDonationItem(record, record.donation)] : []),
    ],
    payments: record.payments.map((p) => orderPaymentView(ctx, record, p)),
    amount: { total: orderTotal(record), vat: 0, discount: 0 },
    ...light,
  };
}

/** A payment (listings and notifications); `changes` adjusts state or refund operations. */
export function paymentView(ctx: ViewContext, record: OrderRecord, changes: Json = {}): Json {
  return paymentDetailView(ctx, record, record.payments[0] as PaymentRecord, changes);
}

/** One payment of an order (PaymentDetail: `GET /v5/payments/{paymentId}`, listings, notifications). */
export function paymentDetailView(
  ctx: ViewContext,
  record: OrderRecord,
  payment: PaymentRecord,
  changes: Json = {},
): Json {
  return {
    order: orderLightView(ctx, record),
    payer: { ...record.payer },
    items: [
      {
        shareAmount: shareOf(record, payment, record.itemId),
        shareItemAmount: shareOf(record, payment, record.itemId),
        id: record.itemId,
        amount: itemAmount(record),
        type: record.itemType,
        state: "Processed",
        name: record.itemName,
      },
      ...(record.donation
        ? [
            {
              shareAmount: record.donation.amount,
              shareItemAmount: record.donation.amount,
              id: record.donation.itemId,
              amount: record.donation.amount,
              type: "Donation",
              state: "Processed",
              name: DONATION_NAME,
            },
          ]
        : []),
    ],
    cashOutState: record.cashOutState,
    paymentReceiptUrl: receiptUrl(ctx, record),
    ...paymentFields(ctx, payment),
    meta: meta(ctx, payment.at),
    refundOperations: refundOperationsView(ctx, payment),
    ...changes,
  };
}
