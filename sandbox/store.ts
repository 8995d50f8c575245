import { createHmac } from "node:crypto";
import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import {
  attachedFileContent,
  DONATION_ITEM_OFFSET,
  DYNAMIC_ID_BASE,
  defineForm,
  FORM_ID_SPAN,
  type FormSpec,
  generatedOrder,
  PAYMENT_ID_OFFSET,
} from "./data/generate.js";
import type {
  CheckoutIntent,
  DeclaredOrder,
  FormDef,
  OrderRecord,
  Organization,
  PaymentRecord,
  Registration,
  SandboxData,
} from "./data/model.js";
import { createDatedSequence, type DateOf, orderDate, type Sequence, withinDates } from "./data/sequence.js";

/** A provider-state setup that cannot be done with these params (answered 400, never a crash). */
export class StateError extends Error {
  override name = "StateError";
}

/** The most forms the sandbox holds (provider states add some). */
const MAX_FORMS = 150;
/** How many seeded orders a form keeps made (`seededOrder` below): more than any small listing holds. */
const MADE_PER_FORM = 1_024;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type FormName = Pick<FormDef, "organizationSlug" | "formType" | "formSlug">;
const sameForm = (a: FormName, b: FormName) =>
  same(a.organizationSlug, b.organizationSlug) &&
  same(a.formType, b.formType) &&
  same(a.formSlug, b.formSlug);

/** Everything the sandbox knows: seeded forms (entries made on demand) and what requests added. */
export function createStore(seed: number, entries: number, data?: SandboxData) {
  // The seeded orders already made, per form (and the organization they were made for): a listing's
  // crawls, its binary searches by date and its details ask for the same orders again and again. Bounded
  // per form, so a sandbox of millions of entries stays flat in memory.
  const made = new WeakMap<FormDef, { organization: Organization; orders: Map<number, OrderRecord> }>();
  const seededOrder = (organization: Organization, form: FormDef, index: number): OrderRecord => {
    let known = made.get(form);
    if (known?.organization !== organization) {
      known = { organization, orders: new Map() };
      made.set(form, known);
    }
    const kept = known.orders.get(index);
    if (kept) return kept;
    if (known.orders.size >= MADE_PER_FORM) known.orders.clear();
    const order = generatedOrder(seed, organization, form, index);
    known.orders.set(index, order);
    return order;
  };
  const readyOrganization: Organization = Object.freeze({
    slug: "amis-du-bac-a-sable",
    name: "Les Amis du Bac à Sable",
    type: "Association1901",
    registeredOn: "2019-03-12" as IsoDay,
    verified: true,
  });
  const slug = readyOrganization.slug;
  const ready: FormDef[] = [
    defineForm({
      key: 0,
      organizationSlug: slug,
      formType: "Event",
      formSlug: "gala-annuel",
      title: "Gala annuel",
      tierName: "Entrée gala",
      itemType: "Registration",
      priceMin: 1500,
      priceMax: 1500,
      count: entries,
      from: "2023-09-01T08:00:00Z",
      to: "2024-11-30T20:00:00Z",
      fileEvery: 10,
      offersDonation: true,
    }),
    defineForm({
      key: 1,
      organizationSlug: slug,
      formType: "Membership",
      formSlug: "adhesion-2025",
      title: "Adhésion 2025",
      tierName: "Adhésion annuelle",
      itemType: "Membership",
      priceMin: 2000,
      priceMax: 2000,
      from: "2024-09-01T08:00:00Z",
      to: "2024-11-30T20:00:00Z",
    }),
  ];
  // The ready-made organization and forms, with the declared ones beside them (or in their place, for the
  // same slug), and indexes of the declared orders by order, payment and item id.
  const baseOrganizations = new Map([[readyOrganization.slug.toLowerCase(), readyOrganization]]);
  for (const organization of data?.organizations ?? [])
    baseOrganizations.set(organization.slug.toLowerCase(), organization);
  const seeded = [...ready];
  for (const declared of data?.forms ?? []) {
    const at = seeded.findIndex((f) => sameForm(f, declared));
    const key = at >= 0 ? at : seeded.length;
    const form: FormDef = { ...declared, key, firstId: (key + 1) * FORM_ID_SPAN };
    if (at >= 0) seeded[at] = form;
    else seeded.push(form);
  }
  const declaredOrders = new Map<number, { form: FormDef; order: DeclaredOrder }>();
  const declaredPayments = new Map<number, number>();
  const declaredItems = new Map<number, number>();
  for (const form of seeded) {
    for (const order of form.declared ?? []) {
      const clash = seeded.find(
        (f) => !f.declared && order.id >= f.firstId && order.id < f.firstId + f.count,
      );
      if (clash || order.id >= DYNAMIC_ID_BASE || declaredOrders.has(order.id)) {
        throw new AssopayError(
          "bad-input",
          `order ${order.id} of form ${form.formType}/${form.formSlug} takes an id the sandbox already uses${clash ? ` (the generated entries of ${clash.formType}/${clash.formSlug})` : ""}`,
          { hint: `give it another id, below ${DYNAMIC_ID_BASE}` },
        );
      }
      declaredOrders.set(order.id, { form, order });
      for (const payment of order.payments) declaredPayments.set(payment.id, order.id);
      declaredItems.set(order.itemId, order.id);
      if (order.donation) declaredItems.set(order.donation.itemId, order.id);
    }
  }
  const wanted = data?.main;
  const mainForm = (wanted && seeded.find((f) => sameForm(f, wanted))) ?? (seeded[0] as FormDef);
  const mainOrganization =
    baseOrganizations.get(mainForm.organizationSlug.toLowerCase()) ?? readyOrganization;

  let organizations = new Map<string, Organization>();
  let forms: FormDef[] = [];
  let orders = new Map<number, OrderRecord>();
  /** Seeded orders changed since the start (refunded, canceled), by id. */
  let changed = new Map<number, OrderRecord>();
  let nextOrderId = DYNAMIC_ID_BASE;
  let intentCounter = 30_674;
  const intents = new Map<number, CheckoutIntent>();

  const store = {
    seed,
    /** The organization of the announced form. */
    mainOrganization,
    /** The form announced with the credentials: the data's `main`, else the one with `--entries` entries. */
    mainForm,
    /** The ready-made form with `--entries` entries and a File field (provider states that need a file). */
    readyForm: ready[0] as FormDef,
    /** A form with custom fields and extra options and no order. */
    membershipForm: ready[1] as FormDef,
    organization: (slug: string): Organization | undefined => organizations.get(slug.toLowerCase()),
    addOrganization(organization: Organization): Organization {
      organizations.set(organization.slug.toLowerCase(), organization);
      return organization;
    },
    form: (organizationSlug: string, formType: string, formSlug: string): FormDef | undefined =>
      forms.find((f) => sameForm(f, { organizationSlug, formType, formSlug })),
    /** Adds a form (or returns the one with that type and slug). */
    ensureForm(spec: Omit<FormSpec, "key">): FormDef {
      const existing = store.form(spec.organizationSlug, spec.formType, spec.formSlug);
      if (existing) return existing;
      if (forms.length >= MAX_FORMS) {
        throw new StateError(`the sandbox holds at most ${MAX_FORMS} forms: tear the states down first`);
      }
      const form = defineForm({ ...spec, key: forms.length });
      forms.push(form);
      return form;
    },
    /**
     * The orders a listing crawls (one form, or every form of an organization), sorted and filtered
     * (`fromMs` to `toMs`, excluded) by `dateOf` (the order's date).
     */
    sequence(
      organizationSlug: string,
      form: FormDef | undefined,
      fromMs?: number,
      toMs?: number,
      dateOf: DateOf = orderDate,
    ): Sequence {
      // Runs of consecutive ids: a seeded form's entries, each declared order, each order made since.
      const chosen = form ? [form] : forms.filter((f) => same(f.organizationSlug, organizationSlug));
      const runs: [firstId: number, count: number][] = [];
      for (const f of chosen) {
        if (!organizations.has(f.organizationSlug.toLowerCase())) continue;
        if (f.declared) runs.push(...f.declared.map((order): [number, number] => [order.id, 1]));
        else runs.push([f.firstId, f.count]);
      }
      for (const order of orders.values()) if (chosen.includes(order.form)) runs.push([order.id, 1]);
      const segments = runs.map(([firstId, count]) => {
        const at = (index: number) => store.order(firstId + index) as OrderRecord;
        return withinDates({ firstId, count, at }, fromMs, toMs, dateOf);
      });
      return createDatedSequence(segments, dateOf);
    },
    order(id: number): OrderRecord | undefined {
      if (!Number.isSafeInteger(id) || id <= 0) return undefined;
      if (id >= DYNAMIC_ID_BASE) return orders.get(id);
      const replaced = changed.get(id);
      if (replaced) return replaced;
      const declared = declaredOrders.get(id);
      if (declared) {
        const organization = organizations.get(declared.form.organizationSlug.toLowerCase());
        return organization && { ...declared.order, organization, form: declared.form };
      }
      const form = forms[Math.floor(id / FORM_ID_SPAN) - 1];
      const index = id % FORM_ID_SPAN;
      if (!form || form.declared || index >= form.count) return undefined;
      const organization = organizations.get(form.organizationSlug.toLowerCase());
      return organization && seededOrder(organization, form, index);
    },
    /** The order holding an item (its main item or its donation). */
    itemOrder(itemId: number): OrderRecord | undefined {
      const holder = declaredItems.get(itemId);
      if (holder !== undefined) return store.order(holder);
      const own = store.order(itemId);
      if (own?.itemId === itemId) return own;
      const donor = store.order(itemId - DONATION_ITEM_OFFSET);
      return donor?.donation?.itemId === itemId ? donor : undefined;
    },
    /** Stores an order made now; `build` receives its id. */
    addOrder(build: (id: number) => OrderRecord): OrderRecord {
      const order = build(nextOrderId++);
      orders.set(order.id, order);
      return order;
    },
    /** Replaces an order (refund, cancellation): every later read and listing sees the new record. */
    replaceOrder(order: OrderRecord): void {
      if (order.id >= DYNAMIC_ID_BASE) orders.set(order.id, order);
      else changed.set(order.id, order);
    },
    /** The order holding a payment, and that payment. */
    payment(paymentId: number): { order: OrderRecord; payment: PaymentRecord } | undefined {
      const holder = declaredPayments.get(paymentId);
      if (holder !== undefined) {
        const order = store.order(holder);
        const payment = order?.payments.find((p) => p.id === paymentId);
        return order && payment && { order, payment };
      }
      // A payment's id is its order's plus PAYMENT_ID_OFFSET, plus 100,000 per later term.
      for (let term = 0; term <= 12; term++) {
        const order = store.order(paymentId - PAYMENT_ID_OFFSET - term * 100_000);
        const payment = order?.payments.find((p) => p.id === paymentId);
        if (order && payment) return { order, payment };
      }
      return undefined;
    },
    organizations: (): readonly Organization[] => [...organizations.values()],
    forms: (organizationSlug: string): readonly FormDef[] =>
      forms.filter((f) => same(f.organizationSlug, organizationSlug)),
    /** A file attached to an order through a custom field of type File (its type is the contract's). */
    attachedFile(orderId: number, fileId: number): { fileName: string; content: Buffer } | undefined {
      const order = store.order(orderId);
      if (!order?.answers.some((a) => a.fileId === fileId)) return undefined;
      const holder = `${order.payer.firstName} ${order.payer.lastName}`;
      const content = attachedFileContent(orderId, fileId, holder);
      return { fileName: `certificat-medical-${orderId}.pdf`, content };
    },
    intents,
    nextIntentId: () => intentCounter++,
    registrations: [] as Registration[],
    /** A value derived from the seed, for keys and secrets that must not change between runs. */
    derive: (purpose: string) =>
      createHmac("sha256", `assopay-sandbox:${seed}`).update(purpose).digest("base64url"),
    /** Back to the seeded start (provider-state teardown). */
    reset(): void {
      organizations = new Map(baseOrganizations);
      forms = [...seeded];
      orders = new Map();
      changed = new Map();
      nextOrderId = DYNAMIC_ID_BASE;
      intentCounter = 30_674;
      intents.clear();
      store.registrations = [];
    },
  };
  store.reset();
  return store;
}

export type Store = ReturnType<typeof createStore>;
