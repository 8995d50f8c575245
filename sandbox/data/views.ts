import { type DateStyle, formatServiceDate, type ServiceInstant } from "../service-dates.js";
import { DONATION_MIN } from "./generate.js";
import type {
  Answer,
  CustomFieldDef,
  ExtraOptionDef,
  FormDef,
  OrderRecord,
  Organization,
  PaymentRecord,
  TierDef,
} from "./model.js";

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
function shareOf(record: OrderRecord, payment: PaymentRecord, itemId: number): number {
  return itemShares(record, payment).find((s) => s.id === itemId)?.share ?? 0;
}

/**
 * An order's items: its main item (whose `amount` is the tier's part alone: the document's "after
 * discount without extra options", each option having its own amount beside it) and, where the payer
 * added one, the donation: an item of type `Donation` on the form's donation tier.
 */
function itemLines(record: OrderRecord) {
  const tier = record.tier ?? (record.form.tiers[0] as TierDef);
  const donation = record.donation;
  return [
    {
      main: true,
      id: record.itemId,
      name: record.itemName,
      priceCategory: tier.priceCategory,
      // The least a pay-what-you-want main item accepts (item detail only).
      ...(tier.priceCategory === "Pwyw" ? { minAmount: tier.priceMin } : {}),
      tierId: tier.id,
      tierDescription: tier.description ?? tier.label,
      amount: itemAmount(record),
      type: record.itemType,
      initialAmount: record.initialAmount,
    },
    ...(donation
      ? [
          {
            main: false,
            id: donation.itemId,
            name: DONATION_NAME,
            priceCategory: "Pwyw",
            tierId: donation.tierId,
            tierDescription: DONATION_NAME,
            amount: donation.amount,
            type: "Donation",
            initialAmount: donation.amount,
          },
        ]
      : []),
  ];
}

/** One item of an order, as every view of it reads it: its main item, or the donation added to it. */
type ItemLine = ReturnType<typeof itemLines>[number];

/**
 * An item after `head` (what holds it): as an order lists it, or as the document's ItemDetail gives it
 * (`detail`: the options' own fields, the tier's description). Custom field answers, options and the QR
 * code are the main item's; File answers (the file's URL) only `withFiles`. An item is `Canceled` once
 * its order is, else `Processed`.
 */
function itemView(
  ctx: ViewContext,
  record: OrderRecord,
  line: ItemLine,
  head: Json,
  detail: boolean,
  withFiles: boolean,
): Json {
  const { firstName, lastName } = record.payer;
  const options = record.options.map((option) => ({
    name: option.label,
    amount: option.price,
    ...(detail ? { priceCategory: "Fixed", isRequired: option.isRequired, customFields: [] } : {}),
    optionId: option.id,
  }));
  return {
    ...head,
    name: line.name,
    user: { firstName, lastName },
    priceCategory: line.priceCategory,
    ...(detail && "minAmount" in line ? { minAmount: line.minAmount } : {}),
    customFields: line.main ? customFieldAnswers(ctx, record, withFiles) : [],
    options: line.main ? options : [],
    ...(line.main ? { qrCode: Buffer.from(`${record.itemId}:${record.at.ms}`).toString("base64") } : {}),
    ...(detail ? { tierDescription: line.tierDescription } : {}),
    tierId: line.tierId,
    id: line.id,
    amount: line.amount,
    type: line.type,
    initialAmount: line.initialAmount,
    state: record.canceled ? "Canceled" : "Processed",
  };
}

/** An order (listings), or an order detail with the URL of each attached file (`detail`). */
export function orderView(ctx: ViewContext, record: OrderRecord, detail = false): Json {
  const light = orderLightView(ctx, record);
  return {
    payer: { ...record.payer },
    items: itemLines(record).map((line) => {
      const payments = record.payments.map((p) => ({ id: p.id, shareAmount: shareOf(record, p, line.id) }));
      return itemView(ctx, record, line, { payments }, false, detail);
    }),
    payments: record.payments.map((p) => orderPaymentView(ctx, record, p)),
    amount: { total: orderTotal(record), vat: 0, discount: 0 },
    ...light,
  };
}

/**
 * One item of an order as the provider's document gives it (ItemDetail: `GET /v5/items/{itemId}`, also
 * each entry of the items listings): its order, payer and payments (each with this item's share and its
 * refund operations), the user it is for, custom field answers, options and tier. `undefined` when the
 * order holds no item `itemId`.
 */
export function itemDetailView(ctx: ViewContext, record: OrderRecord, itemId: number): Json | undefined {
  const line = itemLines(record).find((l) => l.id === itemId);
  if (!line) return undefined;
  const head = {
    order: orderLightView(ctx, record),
    payer: { ...record.payer },
    payments: record.payments.map((payment) => ({
      ...orderPaymentView(ctx, record, payment),
      shareAmount: shareOf(record, payment, line.id),
    })),
  };
  return itemView(ctx, record, line, head, true, true);
}

/**
 * An element of `data` on the items listings: the seed's five fields (payer, items, amount, id, date)
 * and, beside them, the document's item fields. Where they disagree (`amount`: `{total, vat}` in the
 * seed, integer cents in the document) `ctx.shapes` picks the shape. As the seed has it, the entry's
 * `items` are the order's: its item and, where the payer added one, the donation (which the listing
 * serves as no entry of its own).
 */
export function listEntryView(ctx: ViewContext, record: OrderRecord): Json {
  const state = record.canceled ? "Canceled" : "Processed";
  return {
    ...itemDetailView(ctx, record, record.itemId),
    payer: { ...record.payer },
    items: itemLines(record).map(({ id, amount, type }) => ({ id, amount, type, state })),
    // The seed's entry total is what its items cost (the options included); the document's entry is an
    // item, whose amount leaves the options out.
    amount: ctx.shapes === "seed" ? { total: orderTotal(record), vat: 0 } : itemAmount(record),
    id: record.id,
    date: date(ctx, record.at),
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
    items: itemLines(record).map((line) => ({
      shareAmount: shareOf(record, payment, line.id),
      shareItemAmount: shareOf(record, payment, line.id),
      id: line.id,
      amount: line.amount,
      type: line.type,
      state: "Processed",
      name: line.name,
    })),
    cashOutState: record.cashOutState,
    paymentReceiptUrl: receiptUrl(ctx, record),
    ...paymentFields(ctx, payment),
    meta: meta(ctx, payment.at),
    refundOperations: refundOperationsView(ctx, payment),
    ...changes,
  };
}

/** When an organization last changed: its declared `updateDate`, else noon (UTC) of the day it registered. */
function updateDate(ctx: ViewContext, organization: Organization): string {
  const ms = organization.updatedMs ?? Date.parse(`${organization.registeredOn}T12:00:00Z`);
  return formatServiceDate({ ms, ticks: 3120 }, ctx.dateStyle);
}

/**
 * An organization as the document's OrganizationLightModel gives it (each entry of
 * `GET /v5/users/me/organizations`): every field the document lists, `null` where the sandbox knows none.
 */
export function organizationLightView(ctx: ViewContext, organization: Organization): Json {
  return {
    logo: organization.logo ?? null,
    name: organization.name,
    role: "OrganizationAdmin",
    city: organization.city ?? "Bordeaux",
    zipCode: organization.zipCode ?? "33000",
    description: organization.description ?? null,
    updateDate: updateDate(ctx, organization),
    categoryJoId: null,
    url: `${ctx.baseUrl}/associations/${organization.slug}`,
    organizationSlug: organization.slug,
  };
}

/**
 * An organization as the document's OrganizationPublicModel gives it (`GET /v5/organizations/{slug}`,
 * the Organization notification): the light model's fields and the public ones, plus `slug`, which the
 * notifications of the service carry.
 */
export function organizationView(ctx: ViewContext, organization: Organization): Json {
  return {
    ...organizationLightView(ctx, organization),
    slug: organization.slug,
    facebookPage: null,
    galleryImages: [],
    longDescription: organization.description ?? null,
    twitterPage: null,
    videos: [],
    webSite: null,
    isAuthenticated: organization.verified,
    isCashInCompliant: organization.verified,
    banner: null,
    fiscalReceiptEligibility: organization.verified,
    fiscalReceiptIssuanceEnabled: organization.verified,
    type: organization.type,
    category: null,
    address: null,
    geolocation: { latitude: 44.8378, longitude: -0.5792 },
    rnaNumber: null,
  };
}

/** An organization linked to the partner (the document's DirectoryOrganizationPublicModel). */
export function partnerOrganizationView(ctx: ViewContext, organization: Organization): Json {
  return { ...organizationView(ctx, organization), tags: [], linkedPartners: [] };
}

function customFieldView(field: CustomFieldDef): Json {
  return {
    id: field.id,
    ...(field.values ? { values: [...field.values] } : {}),
    isRequired: field.isRequired,
    type: field.type,
    label: field.label,
  };
}

function extraOptionView(option: ExtraOptionDef): Json {
  return {
    customFields: option.customFields.map(customFieldView),
    id: option.id,
    price: option.price,
    vatRate: 0,
    label: option.label,
    description: option.description,
    isRequired: option.isRequired,
  };
}

/**
 * The public form: `customFields` and `extraOptions` on the form (as the seed puts them) and on its tier
 * (as the provider's document does). `withFields` is false under the `no-custom-fields` fault.
 */
export function publicFormView(
  ctx: ViewContext,
  form: FormDef,
  organization: Organization,
  withFields: boolean,
): Json {
  const customFields = withFields ? form.customFields.map(customFieldView) : [];
  const extraOptions = withFields ? form.extraOptions.map(extraOptionView) : [];
  const light = formLightView(ctx, form);
  // The free donation a form offers is a tier of its own, with no description.
  const donation: TierDef[] =
    form.donationTierId === undefined
      ? []
      : [
          {
            id: form.donationTierId,
            label: DONATION_NAME,
            tierType: "Donation",
            priceCategory: "Pwyw",
            priceMin: DONATION_MIN,
            priceMax: DONATION_MIN,
          },
        ];
  return {
    organizationLogo: organization.logo ?? null,
    organizationName: organization.name,
    tiers: [...form.tiers, ...donation].map((tier, n) => ({
      customFields: n === 0 ? customFields : [],
      extraOptions: n === 0 ? extraOptions : [],
      id: tier.id,
      label: tier.label,
      ...(n < form.tiers.length ? { description: tier.description ?? null } : {}),
      tierType: tier.tierType,
      price: tier.priceCategory === "Fixed" ? tier.priceMin : 0,
      ...(tier.priceCategory === "Fixed" ? {} : { minAmount: tier.priceMin }),
      vatRate: 0,
      paymentFrequency: "Single",
      isEligibleTaxReceipt: tier.tierType === "Donation",
    })),
    activityType: form.formType === "Event" ? "Fête / Soirée" : null,
    activityTypeId: form.formType === "Event" ? 6 : 0,
    place: {
      address: null,
      name: null,
      city: organization.city ?? "Bordeaux",
      zipCode: organization.zipCode ?? "33000",
      country: "FRA",
    },
    saleEndDate: null,
    saleStartDate: null,
    validityType: form.formType === "Membership" ? "MovingYear" : "Illimited",
    personalizedMessage: null,
    customFields,
    extraOptions,
    ...light,
  };
}

/**
 * A form as the document's FormLightModel gives it (each entry of `GET …/forms`, and the base of the
 * public form): every field the document lists, `null` where the sandbox knows none.
 */
export function formLightView(ctx: ViewContext, form: FormDef): Json {
  const created = formatServiceDate({ ms: form.createdMs, ticks: 4470 }, ctx.dateStyle);
  const url = formUrl(ctx, form);
  return {
    banner: { id: null, fileName: `${form.formSlug}-banniere.jpg`, publicUrl: `${url}/banniere.jpg` },
    currency: "EUR",
    description: `${form.title} : inscriptions en ligne.`,
    startDate: null,
    endDate: null,
    logo: { id: null, fileName: `${form.formSlug}-logo.png`, publicUrl: `${url}/logo.png` },
    meta: { createdAt: created, updatedAt: created },
    state: "Public",
    title: form.title,
    privateTitle: form.title,
    widgetButtonUrl: `${url}/widget-bouton`,
    widgetFullUrl: `${url}/widget`,
    widgetVignetteHorizontalUrl: `${url}/widget-vignette-horizontale`,
    widgetVignetteVerticalUrl: `${url}/widget-vignette`,
    widgetCounterUrl: `${url}/widget-compteur`,
    formSlug: form.formSlug,
    formType: form.formType,
    url,
    organizationSlug: form.organizationSlug,
  };
}
