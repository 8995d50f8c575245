import { hash32, Purpose, pick, unit } from "../rng.js";
import type { ServiceInstant } from "../service-dates.js";
import type {
  Answer,
  CustomFieldDef,
  ExtraOptionDef,
  FormDef,
  OrderRecord,
  Organization,
  PaymentRecord,
  RefundRecord,
  TierDef,
} from "./model.js";
import { asciiLower, DIETS, PAYER_NAMES, SHIRT_SIZES } from "./names.js";

/** Seeded entries of form `key` have ids from `(key + 1) × FORM_ID_SPAN`. */
export const FORM_ID_SPAN = 10_000_000;
/** The most entries one form may hold. */
export const MAX_ENTRIES = 1_000_000;
/** A payment's id is its order's id plus this. */
export const PAYMENT_ID_OFFSET = 100_000_000;
/** Refund operations get ids above every payment id. */
const REFUND_ID_OFFSET = 3_000_000_000;

/**
 * The refund operation the service shows on a payment refunded by `amount` at `at`: what an API refund
 * adds (`POST /v5/payments/{id}/refund`) and what a data file's `state: Refunded` payment carries.
 */
export function refundOperation(payment: PaymentRecord, amount: number, at: ServiceInstant): RefundRecord {
  return {
    id: REFUND_ID_OFFSET + payment.id - (payment.refundOperations?.length ?? 0),
    amount,
    at,
    state: "Processed",
  };
}

/** A donation item's id is its order's id plus this. */
export const DONATION_ITEM_OFFSET = 300_000_000;
/** The smallest donation a form's donation tier accepts, and the step between seeded donations, in cents. */
export const DONATION_MIN = 500;
/** Ids of orders made while the sandbox runs (checkout, provider states). */
export const DYNAMIC_ID_BASE = 1_900_000_000;

/** What a new form needs; the rest (ids, custom fields) is derived from its key. */
export interface FormSpec {
  key: number;
  organizationSlug: string;
  formType: string;
  formSlug: string;
  title: string;
  tierName: string;
  itemType: string;
  priceMin: number;
  priceMax: number;
  /** Its seeded entries (default none). */
  count?: number;
  from: string;
  to: string;
  /** One entry in `fileEvery` carries an attached file (default 0: none). */
  fileEvery?: number;
  /** The form offers a free donation (a `Donation` tier) that some payers add to their order. */
  offersDonation?: boolean;
}

function customFields(base: number): CustomFieldDef[] {
  return [
    { id: base + 1, label: "Certificat médical", type: "File", isRequired: false },
    { id: base + 2, label: "Taille de t-shirt", type: "ChoiceList", isRequired: true, values: SHIRT_SIZES },
    { id: base + 3, label: "Régime alimentaire", type: "TextInput", isRequired: false, samples: DIETS },
  ];
}

function extraOptions(base: number): ExtraOptionDef[] {
  return [
    {
      id: base + 11,
      label: "Dîner",
      description: "Repas assis après l'événement",
      price: 2500,
      isRequired: false,
      customFields: [
        { id: base + 12, label: "Menu du dîner", type: "ChoiceList", isRequired: true, values: DIETS },
      ],
    },
    {
      id: base + 13,
      label: "Navette retour",
      description: "Départ à minuit",
      price: 500,
      isRequired: false,
      customFields: [],
    },
  ];
}

/** A form definition from its spec: ids, custom fields and extra options follow from the key. */
export function defineForm(spec: FormSpec): FormDef {
  const base = 13_200_000 + spec.key * 100;
  const fromMs = Date.parse(spec.from);
  return {
    key: spec.key,
    organizationSlug: spec.organizationSlug,
    formType: spec.formType,
    formSlug: spec.formSlug,
    title: spec.title,
    count: spec.count ?? 0,
    firstId: (spec.key + 1) * FORM_ID_SPAN,
    fromMs,
    toMs: Date.parse(spec.to),
    fileEvery: spec.fileEvery ?? 0,
    customFields: customFields(base),
    extraOptions: extraOptions(base),
    tiers: [
      {
        id: 8_925_000 + spec.key,
        label: spec.tierName,
        tierType: spec.itemType,
        priceCategory: spec.priceMin === spec.priceMax ? "Fixed" : "Pwyw",
        priceMin: spec.priceMin,
        priceMax: spec.priceMax,
      },
    ],
    ...(spec.offersDonation ? { donationTierId: 8_926_000 + spec.key } : {}),
    createdMs: fromMs - 14 * 86_400_000,
  };
}

/** A payer drawn from the seed. */
export function seededPayer(seed: number, ...key: number[]) {
  const [firstName, firstAscii] = pick(PAYER_NAMES.first, hash32(seed, ...key, Purpose.firstName));
  const [lastName, lastAscii] = pick(PAYER_NAMES.last, hash32(seed, ...key, Purpose.lastName));
  const suffix = hash32(seed, ...key, Purpose.emailSuffix) % 100;
  return {
    email: `${firstAscii}.${lastAscii}${suffix}@example.org`,
    firstName,
    lastName,
    country: "FRA",
  };
}

/** A generated answer to a field without samples, by the document's field type. */
function typedAnswer(field: CustomFieldDef, hash: number): string {
  switch (field.type) {
    case "Date":
      return new Date(Date.UTC(1950 + (hash % 55), (hash >>> 8) % 12, 1 + ((hash >>> 12) % 28)))
        .toISOString()
        .slice(0, 10);
    case "YesNo":
      return hash % 2 === 0 ? "Oui" : "Non";
    case "Phone":
      return `06${String(hash % 100_000_000).padStart(8, "0")}`;
    case "Zipcode":
      return String(10_000 + (hash % 85_000)).padStart(5, "0");
    case "Number":
      return String(hash % 1000);
    default:
      return `${field.label} ${1 + (hash % 97)}`;
  }
}

/**
 * The seeded answers of one entry: every field answered, by its samples, its values or its type; a File
 * field on one entry in `fileEvery` (every entry when it is 1, none when 0).
 */
function seededAnswers(seed: number, form: FormDef, index: number): Answer[] {
  const answers: Answer[] = [];
  let files = 0;
  for (const field of form.customFields) {
    switch (field.type) {
      case "File":
        if (form.fileEvery === 1 || (form.fileEvery > 3 && index % form.fileEvery === 3)) {
          // A second File field of a form draws another id (the first keeps the ready-made form's ids).
          const more = files++ > 0 ? [files] : [];
          answers.push({
            field,
            fileId: 1_000_000 + (hash32(seed, form.key, index, Purpose.file, ...more) % 9_000_000),
          });
        }
        break;
      case "ChoiceList":
        answers.push({
          field,
          answer: pick(field.samples ?? field.values ?? SHIRT_SIZES, hash32(seed, index, Purpose.choice)),
        });
        break;
      default: {
        const hash = hash32(seed, form.key, index, Purpose.text);
        answers.push({ field, answer: field.samples ? pick(field.samples, hash) : typedAnswer(field, hash) });
      }
    }
  }
  return answers;
}

/**
 * The item part of order `id` on `tier` of `form`: the tier's part (`initialAmount`) plus the options
 * taken, and the `donation` added to it where the form offers one.
 */
export function orderItem(
  id: number,
  form: Pick<FormDef, "tiers" | "donationTierId">,
  tier: TierDef,
  initialAmount: number,
  options: readonly ExtraOptionDef[],
  donation: number | undefined,
): Pick<OrderRecord, "itemName" | "itemType" | "tier" | "initialAmount" | "options" | "amount" | "donation"> {
  return {
    itemName: tier.label,
    itemType: tier.tierType,
    ...(tier.id === form.tiers[0]?.id ? {} : { tier }),
    initialAmount,
    options,
    amount: options.reduce((sum, option) => sum + option.price, initialAmount),
    ...(donation && form.donationTierId !== undefined
      ? { donation: { itemId: id + DONATION_ITEM_OFFSET, tierId: form.donationTierId, amount: donation } }
      : {}),
  };
}

/** Entry `index` of a form, computed from (seed, form, index) alone. */
export function generatedOrder(
  seed: number,
  organization: Organization,
  form: FormDef,
  index: number,
): OrderRecord {
  const id = form.firstId + index;
  const slot = (form.toMs - form.fromMs) / Math.max(1, form.count);
  const ms = Math.floor(
    form.fromMs + index * slot + unit(hash32(seed, form.key, index, Purpose.date)) * slot,
  );
  const ticks = hash32(seed, form.key, index, Purpose.fraction) % 10_000;
  // Forms of more than one tier spread their entries over them; the ready-made ones have one.
  const tier = pick(form.tiers, form.tiers.length > 1 ? hash32(seed, form.key, index, Purpose.tier) : 0);
  const steps = Math.max(1, Math.floor((tier.priceMax - tier.priceMin) / 100) + 1);
  const initialAmount =
    tier.priceCategory === "Fixed"
      ? tier.priceMin
      : tier.priceMin + (hash32(seed, form.key, index, Purpose.amount) % steps) * 100;
  const options = form.extraOptions.filter(
    (_, n) => hash32(seed, form.key, index, Purpose.option, n) % 3 === 0,
  );
  const donation =
    hash32(seed, form.key, index, Purpose.donation) % 4 === 0
      ? DONATION_MIN * (1 + (hash32(seed, form.key, index, Purpose.amount, 1) % 10))
      : undefined;
  const item = orderItem(id, form, tier, initialAmount, options, donation);
  return {
    id,
    itemId: id,
    at: { ms, ticks },
    organization,
    form,
    payer: seededPayer(seed, form.key, index),
    ...item,
    payments: [
      {
        id: id + PAYMENT_ID_OFFSET,
        amount: item.amount + (item.donation?.amount ?? 0),
        at: { ms: ms - 180, ticks: (ticks * 7) % 10_000 },
        installmentNumber: 1,
        state: "Authorized",
      },
    ],
    answers: seededAnswers(seed, form, index),
    cashOutState: hash32(seed, form.key, index, Purpose.cashOut) % 4 === 0 ? "MoneyIn" : "Transfered",
  };
}

/** The bytes of an attached file: a small PDF naming the order. */
export function attachedFileContent(orderId: number, fileId: number, holder: string): Buffer {
  const text = `Certificat medical - commande ${orderId} - ${asciiLower(holder)} - fichier ${fileId}`;
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  return Buffer.from(
    [
      "%PDF-1.4",
      "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
      "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj",
      `4 0 obj << /Length ${stream.length} >> stream`,
      stream,
      "endstream endobj",
      "trailer << /Root 1 0 R >>",
      "%%EOF",
      "",
    ].join("\n"),
    "latin1",
  );
}
