import { formatServiceDate } from "../service-dates.js";
import type { OrderRecord } from "./model.js";
import {
  customFieldAnswers,
  DONATION_NAME,
  itemAmount,
  orderLightView,
  orderPaymentView,
  orderTotal,
  shareOf,
  tierOf,
  type ViewContext,
} from "./views.js";

type Json = Record<string, unknown>;

/** The options an item's payer took (the document's ItemOption), each with its own amount. */
function optionsView(record: OrderRecord): Json[] {
  return record.options.map((option) => ({
    name: option.label,
    amount: option.price,
    priceCategory: "Fixed",
    isRequired: option.isRequired,
    customFields: [],
    optionId: option.id,
  }));
}

/** What an item of an order shares with the order's other items: the order, its payer and its payments (each with this item's share). */
function heldBy(ctx: ViewContext, record: OrderRecord, itemId: number): Json {
  return {
    order: orderLightView(ctx, record),
    payer: { ...record.payer },
    payments: record.payments.map((payment) => ({
      ...orderPaymentView(ctx, record, payment),
      shareAmount: shareOf(record, payment, itemId),
    })),
  };
}

/** The user an item is for: the payer's names. */
function userOf(record: OrderRecord): Json {
  const { firstName, lastName } = record.payer;
  return { firstName, lastName };
}

/**
 * One item as the provider's document gives it (ItemDetail, also each entry of the items listings): its
 * order, payer, payments (with their refund operations), the user it is for, custom field answers (a
 * File answer is the file's URL), options and tier. `amount` is the tier's part alone: the document's
 * "after discount without extra options"; each option has its own amount beside it.
 */
export function itemDetailView(ctx: ViewContext, record: OrderRecord): Json {
  return {
    ...heldBy(ctx, record, record.itemId),
    name: record.itemName,
    user: userOf(record),
    priceCategory: tierOf(record).priceCategory,
    ...(tierOf(record).priceCategory === "Pwyw" ? { minAmount: tierOf(record).priceMin } : {}),
    customFields: customFieldAnswers(ctx, record, true),
    options: optionsView(record),
    qrCode: Buffer.from(`${record.itemId}:${record.at.ms}`).toString("base64"),
    tierDescription: tierOf(record).description ?? tierOf(record).label,
    tierId: tierOf(record).id,
    id: record.itemId,
    amount: itemAmount(record),
    type: record.itemType,
    initialAmount: record.initialAmount,
    state: itemState(record),
  };
}

/**
 * The donation an order carries, as an item of its own (ItemDetail of type `Donation` on the form's
 * donation tier): same order, payer and payments as the order's main item, its own amount and share.
 * `undefined` when the order has no donation.
 */
export function donationItemView(ctx: ViewContext, record: OrderRecord): Json | undefined {
  const donation = record.donation;
  if (!donation) return undefined;
  return {
    ...heldBy(ctx, record, donation.itemId),
    name: DONATION_NAME,
    user: userOf(record),
    priceCategory: "Pwyw",
    customFields: [],
    options: [],
    tierDescription: DONATION_NAME,
    tierId: donation.tierId,
    id: donation.itemId,
    amount: donation.amount,
    type: "Donation",
    initialAmount: donation.amount,
    state: itemState(record),
  };
}

/** An item is `Canceled` once its order is, else `Processed`. */
function itemState(record: OrderRecord): string {
  return record.canceled ? "Canceled" : "Processed";
}

/**
 * An element of `data` on the items listings: the seed's five fields (payer, items, amount, id, date)
 * and, beside them, the document's item fields. Where they disagree (`amount`: `{total, vat}` in the
 * seed, integer cents in the document) `ctx.shapes` picks the shape. As the seed has it, the entry's
 * `items` are the order's: its item and, where the payer added one, the donation (which the listing
 * serves as no entry of its own).
 */
export function listEntryView(ctx: ViewContext, record: OrderRecord): Json {
  const { email, firstName, lastName } = record.payer;
  const detail = itemDetailView(ctx, record);
  const state = itemState(record);
  const donation = record.donation;
  return {
    ...detail,
    payer: { ...record.payer, email, firstName, lastName },
    items: [
      { id: record.itemId, amount: itemAmount(record), type: record.itemType, state },
      ...(donation ? [{ id: donation.itemId, amount: donation.amount, type: "Donation", state }] : []),
    ],
    // The seed's entry total is what its items cost (the options included); the document's entry is an
    // item, whose amount leaves the options out.
    amount: seedOrDocumentAmount(ctx, orderTotal(record), itemAmount(record)),
    id: record.id,
    date: formatServiceDate(record.at, ctx.dateStyle),
  };
}

function seedOrDocumentAmount(ctx: ViewContext, total: number, item: number): unknown {
  switch (ctx.shapes) {
    case "seed":
      return { total, vat: 0 };
    case "document":
      return item;
  }
}
