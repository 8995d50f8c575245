import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { hash32, Purpose } from "../rng.js";
import type { CheckedDataFile, FieldEntry, FormEntry, OrderEntry, OrganizationEntry } from "./data-file.js";
import { orderItem, PAYMENT_ID_OFFSET, refundOperation, seededPayer } from "./generate.js";
import type {
  Answer,
  CustomFieldDef,
  DeclaredForm,
  DeclaredOrder,
  ExtraOptionDef,
  Organization,
  PaymentRecord,
  SandboxData,
  TierDef,
} from "./model.js";

/** Ids of declared orders that name none: below the ids of orders made while the sandbox runs. */
export const DECLARED_ID_BASE = 1_800_000_000;
/** Ids of declared tiers, custom fields and options that name none, per declared form. */
const TIER_ID_BASE = 9_100_000;
const FIELD_ID_BASE = 14_000_000;

/** What the type of a form's items is when its tier names none. */
const ITEM_TYPE_OF_FORM: Readonly<Record<string, string>> = {
  Event: "Registration",
  Membership: "Membership",
  Donation: "Donation",
  CrowdFunding: "Donation",
  Shop: "Product",
  PaymentForm: "Payment",
  Checkout: "Payment",
};

const msOf = (text: string | undefined, fallback: string, endOfDay = false): number =>
  Date.parse(
    text === undefined
      ? fallback
      : /^\d{4}-\d\d-\d\d$/.test(text)
        ? `${text}T${endOfDay ? "20" : "08"}:00:00Z`
        : text,
  );

type Path = (string | number)[];

/**
 * The sandbox data a checked data file declares, every part it leaves out completed as the ready-made
 * data is: ids, names, dates, payers, answers, generated orders. Throws (`bad-input`, file:line) on what
 * only the values together show: payments that do not add up to their order.
 */
export function buildSandboxData(checked: CheckedDataFile, seed: number): SandboxData {
  const organizations: Organization[] = [];
  const forms: DeclaredForm[] = [];
  for (const [o, entry] of (checked.data.organizations ?? []).entries()) {
    organizations.push(organizationOf(entry));
    for (const [f, form] of (entry.forms ?? []).entries()) {
      forms.push(formOf(checked, seed, entry.slug, form, forms.length, ["organizations", o, "forms", f]));
    }
  }
  const main = checked.data.main;
  const [formType = "", formSlug = ""] = main?.form.split("/") ?? [];
  // The form `main` names, else the first declared.
  const named = main ? { organizationSlug: main.organization, formType, formSlug } : forms[0];
  return {
    organizations,
    forms,
    clients: (checked.data.clients ?? []).map((c) => ({
      id: c.id,
      secret: c.secret,
      rights: c.rights ?? [],
    })),
    ...(named
      ? {
          main: {
            organizationSlug: named.organizationSlug,
            formType: named.formType,
            formSlug: named.formSlug,
          },
        }
      : {}),
  };
}

/** An organization as declared (its city, zip code, description and logo as they are), defaults filled. */
function organizationOf({ forms: _forms, updateDate, ...entry }: OrganizationEntry): Organization {
  return {
    ...entry,
    name: entry.name ?? entry.slug,
    type: entry.type ?? "Association1901",
    registeredOn: (entry.registeredOn ?? "2019-03-12") as IsoDay,
    verified: entry.verified ?? true,
    ...(updateDate === undefined ? {} : { updatedMs: Date.parse(updateDate) }),
  };
}

function fieldOf(entry: FieldEntry, id: number): CustomFieldDef {
  return {
    id: entry.id ?? id,
    label: entry.label,
    type: entry.type,
    isRequired: entry.required ?? false,
    ...(entry.values ? { values: entry.values } : {}),
    ...(entry.answers ? { samples: entry.answers } : {}),
  };
}

function formOf(
  checked: CheckedDataFile,
  seed: number,
  organizationSlug: string,
  entry: FormEntry,
  n: number,
  at: Path,
): DeclaredForm {
  const itemType = ITEM_TYPE_OF_FORM[entry.type] ?? "Payment";
  const tiers: TierDef[] = (entry.tiers ?? [{ label: entry.title ?? entry.slug, price: 1000 }]).map(
    (t, k) => {
      const fixed = t.minAmount === undefined && t.maxAmount === undefined;
      const priceMin = fixed ? (t.price ?? 0) : (t.minAmount ?? 0);
      return {
        id: t.id ?? TIER_ID_BASE + n * 10 + k,
        label: t.label,
        ...(t.description === undefined ? {} : { description: t.description }),
        tierType: t.type ?? itemType,
        priceCategory: fixed ? "Fixed" : "Pwyw",
        priceMin,
        priceMax: fixed ? priceMin : (t.maxAmount ?? Math.max(priceMin, 10_000)),
      };
    },
  );
  const fieldBase = FIELD_ID_BASE + n * 1000;
  const customFields = (entry.customFields ?? []).map((f, k) => fieldOf(f, fieldBase + k + 1));
  const extraOptions: ExtraOptionDef[] = (entry.extraOptions ?? []).map((x, k) => ({
    id: x.id ?? fieldBase + 100 + k * 10,
    label: x.label,
    description: x.description ?? "",
    price: x.price,
    isRequired: x.required ?? false,
    customFields: (x.customFields ?? []).map((f, j) => fieldOf(f, fieldBase + 101 + k * 10 + j)),
  }));
  const fromMs = msOf(entry.from, "2024-09-01T08:00:00Z");
  const toMs = Math.max(fromMs, msOf(entry.to, "2025-05-31T20:00:00Z", true));
  const form: DeclaredForm = {
    organizationSlug,
    formType: entry.type,
    formSlug: entry.slug,
    title: entry.title ?? entry.slug,
    count: typeof entry.orders === "number" ? entry.orders : 0,
    fromMs,
    toMs,
    fileEvery: 1,
    customFields,
    extraOptions,
    tiers,
    ...(entry.donation ? { donationTierId: TIER_ID_BASE + n * 10 + 9 } : {}),
    source: { file: checked.file, line: checked.lineOf(at) },
    createdMs: fromMs - 14 * 86_400_000,
  };
  if (!Array.isArray(entry.orders)) return form;
  const placed = { ...form, count: entry.orders.length };
  const declared = entry.orders.map((order, k) =>
    orderOf(checked, seed, placed, order, DECLARED_ID_BASE + n * 100_000 + k, [...at, "orders", k]),
  );
  return { ...form, count: declared.length, declared };
}

function orderOf(
  checked: CheckedDataFile,
  seed: number,
  form: DeclaredForm,
  entry: OrderEntry,
  fallbackId: number,
  at: Path,
): DeclaredOrder {
  const id = entry.id ?? fallbackId;
  const tier = form.tiers.find((t) => t.label === entry.tier) ?? (form.tiers[0] as TierDef);
  const options = (entry.options ?? []).flatMap((label) =>
    form.extraOptions.filter((x) => x.label === label),
  );
  const item = orderItem(id, form, tier, entry.amount ?? tier.priceMin, options, entry.donation);
  const total = item.amount + (entry.donation ?? 0);
  // Undated orders are spread over the form's dates, in the order they are written.
  const place = at.at(-1) as number;
  const count = Math.max(1, form.count);
  const spread = form.fromMs + Math.floor(((form.toMs - form.fromMs) * place) / count);
  const ms = entry.date === undefined ? spread : msOf(entry.date, "");
  const ticks = hash32(seed, id, Purpose.fraction) % 10_000;
  const payments = paymentsOf(checked, entry, id, total, ms, at);
  const generated = seededPayer(seed, 9, id);
  const answers: Answer[] = form.customFields.flatMap((field): Answer[] => {
    const given = entry.answers?.[field.label];
    if (field.type === "File")
      return given === "" ? [] : [{ field, fileId: 1_000_000 + (hash32(seed, id, field.id) % 9_000_000) }];
    return [{ field, answer: given ?? field.samples?.[0] ?? field.values?.[0] ?? "" }];
  });
  return {
    id,
    itemId: entry.itemId ?? id,
    at: { ms, ticks },
    payer: { ...generated, ...entry.payer },
    ...item,
    payments,
    answers,
    cashOutState: "Transfered",
  };
}

function paymentsOf(
  checked: CheckedDataFile,
  entry: OrderEntry,
  orderId: number,
  total: number,
  ms: number,
  at: Path,
): PaymentRecord[] {
  const given = entry.payments ?? [{}];
  const stated = given.reduce((sum, p) => sum + (p.amount ?? 0), 0);
  const unstated = given.filter((p) => p.amount === undefined).length;
  if (unstated === 0 ? stated !== total : stated > total) {
    throw new AssopayError(
      "bad-input",
      `the sandbox data file is invalid: the payments of order ${orderId} add up to ${stated}, the order costs ${total}`,
      {
        location: { file: checked.file, line: checked.lineOf([...at, "payments"]) },
        hint: "make the payments' amounts add up to the tier's amount plus the options (and donation)",
      },
    );
  }
  return given.map((p, k) => {
    const share = Math.floor((total - stated) / Math.max(1, unstated));
    const last = k === given.length - 1 && p.amount === undefined;
    const payment: PaymentRecord = {
      id: p.id ?? orderId + PAYMENT_ID_OFFSET + k * 100_000,
      amount: p.amount ?? (last ? total - stated - share * (unstated - 1) : share),
      at: { ms: p.date === undefined ? ms - 180 + k * 30 * 86_400_000 : msOf(p.date, ""), ticks: 4242 },
      installmentNumber: k + 1,
      state: p.state ?? (k === 0 ? "Authorized" : "Pending"),
    };
    // A refunded payment shows the refund of its whole amount, as one refunded through the API does.
    if (payment.state !== "Refunded") return payment;
    return { ...payment, refundOperations: [refundOperation(payment, payment.amount, payment.at)] };
  });
}
