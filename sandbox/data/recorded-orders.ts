import type {
  DataEnums,
  FieldEntry,
  FormEntry,
  OptionEntry,
  OrderEntry,
  PaymentEntry,
  TierEntry,
} from "./data-file.js";

/** Plain JSON read leniently: a recorded body may lack anything. */
export type Json = Record<string, unknown>;

export const asObject = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
export const asArray = (value: unknown): Json[] =>
  Array.isArray(value) ? value.map(asObject).filter((v): v is Json => v !== undefined) : [];
export const asString = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;
export const asCents = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647
    ? value
    : undefined;
export const asId = (value: unknown): number | undefined => {
  const n = asCents(value);
  return n !== undefined && n > 0 ? n : undefined;
};

/** What a form's recorded orders show of the form itself: tiers, custom fields, options. */
export interface FormHints {
  tiers: Map<number, TierEntry>;
  fields: Map<string, FieldEntry>;
  options: Map<string, OptionEntry>;
  /** Items seen without their tier: their amounts and type, for a tier that covers them. */
  untiered: { amounts: number[]; type?: string };
}

export const emptyHints = (): FormHints => ({
  tiers: new Map(),
  fields: new Map(),
  options: new Map(),
  untiered: { amounts: [] },
});

/** The main item of a recorded order (`items[]`), or the entry itself (an items-listing entry). */
function mainItem(order: Json): Json {
  const items = asArray(order.items);
  return (
    items.find((i) => i.type !== "Donation" && "tierId" in i) ??
    items.find((i) => i.type !== "Donation") ??
    items[0] ??
    order
  );
}

/** A recorded payment: id, amount, state and date, as far as they are there. */
const paymentOf = (payment: Json): PaymentEntry => ({
  id: asId(payment.id),
  amount: asCents(payment.amount),
  state: asString(payment.state),
  date: asString(payment.date),
});

/**
 * An order as the data file declares it, from what a recorded answer shows of it: an order of a listing
 * or its detail (`items`, `payments`), or an entry of an items listing (the item, with `order`). It also
 * adds what the order shows of its form (tier, answered fields, options taken) to `hints`. What is not
 * there is `undefined`, which the data file's JSON leaves out.
 */
export function orderFromRecorded(record: Json, hints: FormHints): OrderEntry | undefined {
  const isItemEntry = asObject(record.order) !== undefined;
  const order = isItemEntry ? (asObject(record.order) as Json) : record;
  const id = asId(order.id) ?? (isItemEntry ? asId(record.id) : undefined);
  if (id === undefined) return undefined;
  const item = isItemEntry ? record : mainItem(record);
  const itemId = asId(isItemEntry ? asArray(record.items)[0]?.id : item.id);
  const tierId = asId(item.tierId);
  const tierLabel = asString(item.name);
  const optionsTaken = asArray(item.options);
  // The tier's part: `initialAmount`, or the item's amount (the document's: without the options).
  const itemAmount = asCents(item.initialAmount) ?? asCents(item.amount);
  if (tierId !== undefined && tierLabel && !hints.tiers.has(tierId)) {
    hints.tiers.set(tierId, { id: tierId, label: tierLabel, type: asString(item.type), price: itemAmount });
  }
  if (tierId === undefined && itemAmount !== undefined) {
    hints.untiered.amounts.push(itemAmount);
    hints.untiered.type ??= asString(item.type);
  }
  for (const option of optionsTaken) {
    const label = asString(option.name);
    const price = asCents(option.amount);
    if (label && price !== undefined && !hints.options.has(label))
      hints.options.set(label, { id: asId(option.optionId), label, price });
  }
  const answers: Record<string, string> = {};
  for (const field of asArray(item.customFields)) {
    const label = asString(field.name);
    const type = asString(field.type);
    if (!label || !type) continue;
    if (!hints.fields.has(label)) hints.fields.set(label, { id: asId(field.id), label, type });
    // A File answer is a URL of the recorded service: the sandbox attaches a file of its own.
    if (type !== "File" && typeof field.answer === "string") answers[label] = field.answer;
  }
  const payer = asObject(record.payer) ?? asObject(order.payer);
  const donation = asArray(record.items).find((i) => i.type === "Donation" && i !== item);
  const payments = asArray(isItemEntry ? record.payments : order.payments).map(paymentOf);
  return {
    id,
    itemId,
    date: asString(order.date) ?? asString(record.date),
    payer: payer && payerOf(payer),
    tier: tierLabel,
    amount: itemAmount,
    options:
      optionsTaken.length > 0 ? optionsTaken.map((o) => asString(o.name) ?? "").filter(Boolean) : undefined,
    answers: Object.keys(answers).length > 0 ? answers : undefined,
    donation: (donation && asCents(donation.amount)) || undefined,
    payments: payments.length > 0 ? payments : undefined,
  };
}

function payerOf(payer: Json): NonNullable<OrderEntry["payer"]> {
  const country = asString(payer.country);
  return {
    firstName: asString(payer.firstName),
    lastName: asString(payer.lastName),
    email: asString(payer.email),
    country: country && /^[A-Z]{3}$/.test(country) ? country : undefined,
  };
}

/** Two sightings of one order (a listing entry and its detail): the later fills what the first lacks. */
export function mergeOrders(first: OrderEntry, later: OrderEntry): OrderEntry {
  return {
    ...later,
    ...Object.fromEntries(Object.entries(first).filter(([, value]) => value !== undefined)),
    ...(first.answers || later.answers ? { answers: { ...later.answers, ...first.answers } } : {}),
  };
}

/**
 * A recorded form made to hold together as a data file: values outside the document's enumerations are
 * left to the defaults; an order's tier, options and answers name only what the form declares; its
 * payments keep their amounts only where they add up to the order (else each keeps its state and the
 * sandbox splits the total); a donation only on a form that offers one.
 */
export function fitForm(form: FormEntry, enums: DataEnums): FormEntry {
  const tiers = (form.tiers ?? []).map((t) =>
    t.type && !enums.tierType.includes(t.type) ? { ...t, type: undefined } : t,
  );
  const fields = (form.customFields ?? []).filter((f) => f.label !== "" && enums.fieldType.includes(f.type));
  const options = (form.extraOptions ?? []).filter((o) => o.label !== "");
  const tierLabels = new Set(tiers.map((t) => t.label));
  const fieldLabels = new Set(fields.map((f) => f.label));
  const price = new Map(options.map((o) => [o.label, o.price]));
  const orders = Array.isArray(form.orders)
    ? form.orders.map((order): OrderEntry => {
        const tier = order.tier !== undefined && tierLabels.has(order.tier) ? order.tier : undefined;
        const taken = (order.options ?? []).filter((o) => price.has(o));
        const answers = Object.fromEntries(
          Object.entries(order.answers ?? {}).filter(([label]) => fieldLabels.has(label)),
        );
        const donation = form.donation ? order.donation : undefined;
        const tierPrice = tiers.find((t) => t.label === (tier ?? tiers[0]?.label));
        const amount = order.amount ?? tierPrice?.price ?? tierPrice?.minAmount ?? 0;
        const total = taken.reduce((sum, o) => sum + (price.get(o) ?? 0), amount) + (donation ?? 0);
        const payments = (order.payments ?? []).map((p) =>
          p.state && !enums.paymentState.includes(p.state) ? { ...p, state: undefined } : p,
        );
        const stated = payments.reduce((sum, p) => sum + (p.amount ?? 0), 0);
        const addsUp = payments.every((p) => p.amount !== undefined) && stated === total;
        const { tier: _t, options: _o, answers: _a, donation: _d, payments: _p, ...rest } = order;
        return {
          ...rest,
          amount,
          ...(tier ? { tier } : {}),
          ...(taken.length > 0 ? { options: taken } : {}),
          ...(Object.keys(answers).length > 0 ? { answers } : {}),
          ...(donation ? { donation } : {}),
          ...(payments.length > 0
            ? { payments: addsUp ? payments : payments.map(({ amount: _amount, ...p }) => p) }
            : {}),
        };
      })
    : form.orders;
  return {
    ...form,
    ...(tiers.length > 0 ? { tiers } : {}),
    ...(fields.length > 0 ? { customFields: fields } : { customFields: undefined }),
    ...(options.length > 0 ? { extraOptions: options } : { extraOptions: undefined }),
    ...(orders === undefined ? {} : { orders }),
  };
}
