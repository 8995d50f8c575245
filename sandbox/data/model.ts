import type { IsoDay } from "../../core/dates.js";
import type { SourceLocation } from "../../core/errors.js";
import type { ServiceInstant } from "../service-dates.js";

/** An association (organization) of the sandbox. */
export interface Organization {
  slug: string;
  name: string;
  type: string;
  /** The day it registered: before June 2025 for the ready-made one. */
  registeredOn: IsoDay;
  /** Since 2025-06-01 an unverified association cannot receive a payment. */
  verified: boolean;
  city?: string;
  zipCode?: string;
  description?: string;
  logo?: string;
  /** When it last changed (the document's `updateDate`); default: noon UTC of `registeredOn`. */
  updatedMs?: number;
}

/** A custom field offered by a form (`File`, `ChoiceList`, `TextInput` …). */
export interface CustomFieldDef {
  id: number;
  label: string;
  type: string;
  isRequired: boolean;
  values?: readonly string[];
  /** The answers generated entries draw from (default: by type). */
  samples?: readonly string[];
}

/** A tier of a form: what an item costs and what type it is. */
export interface TierDef {
  id: number;
  label: string;
  description?: string;
  /** The document's TierType, also the `type` of the items bought on it. */
  tierType: string;
  /** `Fixed`: every item costs `priceMin`; `Pwyw` (pay what you want): from `priceMin` to `priceMax`. */
  priceCategory: "Fixed" | "Pwyw";
  priceMin: number;
  priceMax: number;
}

export interface ExtraOptionDef {
  id: number;
  label: string;
  description: string;
  price: number;
  isRequired: boolean;
  customFields: readonly CustomFieldDef[];
}

/**
 * A form and its seeded entries. Entry `i` (0 ≤ i < count) has id `firstId + i` and is generated from
 * (seed, form key, i) on demand; dates grow with `i` between `fromMs` and `toMs`.
 */
export interface FormDef {
  key: number;
  organizationSlug: string;
  formType: string;
  formSlug: string;
  title: string;
  count: number;
  firstId: number;
  fromMs: number;
  toMs: number;
  /** One entry in `fileEvery` carries an attached file (0: none). */
  fileEvery: number;
  customFields: readonly CustomFieldDef[];
  extraOptions: readonly ExtraOptionDef[];
  /** The form's tiers (never none), the first being its default one: its generated items' tier. */
  tiers: readonly TierDef[];
  /** Orders declared by a data file or a recording: entry `i` is `declared[i]` instead of generated. */
  declared?: readonly DeclaredOrder[];
  /** Where a data file declared the form (its errors against the contract point there). */
  source?: SourceLocation;
  /** The id of the form's free-donation tier (`Donation`, pay what you want), when it offers one. */
  donationTierId?: number;
  createdMs: number;
}

export interface Payer {
  email: string;
  firstName: string;
  lastName: string;
  country: string;
}

/** An answer to a custom field; a File answer points at an attached file. */
export interface Answer {
  field: CustomFieldDef;
  answer?: string;
  fileId?: number;
}

/** A payment of an order: the first one authorised, later terms pending. */
export interface PaymentRecord {
  id: number;
  amount: number;
  at: ServiceInstant;
  installmentNumber: number;
  state: string;
  /** Refunds made on this payment (`POST /v5/payments/{id}/refund`), oldest first. */
  refundOperations?: readonly RefundRecord[];
}

/** A refund operation on a payment. */
export interface RefundRecord {
  id: number;
  amount: number;
  at: ServiceInstant;
  state: string;
}

/** One order with one item, generated or stored. Every view (entry, order, payment) reads from it. */
export interface OrderRecord {
  id: number;
  itemId: number;
  at: ServiceInstant;
  organization: Organization;
  form: FormDef;
  payer: Payer;
  itemName: string;
  itemType: string;
  /** The item's tier when it is not the form's first. */
  tier?: TierDef;
  /** The tier's part of the item: its price (`Fixed`) or what the payer chose (`Pwyw`). */
  initialAmount: number;
  /** The extra options the payer took; each adds its price. */
  options: readonly ExtraOptionDef[];
  /** What the item line costs: the tier's part plus the options (the order's total adds the donation). The
   * item's own `amount` in the views leaves the options out, as the document says (`itemAmount`). */
  amount: number;
  /** A free donation added to the order: a second item, of type `Donation`, on the form's donation tier. */
  donation?: { itemId: number; tierId: number; amount: number };
  payments: readonly PaymentRecord[];
  answers: readonly Answer[];
  cashOutState: string;
  /** Set once the order is canceled (`POST /v5/orders/{id}/cancel`). */
  canceled?: boolean;
  checkoutIntentId?: number;
  metadata?: unknown;
}

/** An order a data file or a recording declares: an order record without its form and organization. */
export type DeclaredOrder = Omit<OrderRecord, "organization" | "form">;

/** A form a data file or a recording declares; the store gives it its key and id range. */
export type DeclaredForm = Omit<FormDef, "key" | "firstId">;

/** An API client a data file declares, with its rights: `organization_admin` is the one the file routes need. */
export interface DeclaredClient {
  id: string;
  secret: string;
  rights: readonly "organization_admin"[];
}

/**
 * The sandbox's data as a value: what a data file or a recording declares. The ready-made organization
 * and forms are always there (provider states use them); a declared organization or form with the same
 * slug (and type) takes its place. `main` is the form announced with the credentials.
 */
export interface SandboxData {
  organizations: readonly Organization[];
  forms: readonly DeclaredForm[];
  clients: readonly DeclaredClient[];
  main?: { organizationSlug: string; formType: string; formSlug: string };
}

/** What `POST …/checkout-intents` asked for (already validated against the contract's schema). */
export interface CheckoutRequest {
  totalAmount: number;
  initialAmount: number;
  itemName: string;
  backUrl: string;
  errorUrl: string;
  returnUrl: string;
  containsDonation: boolean;
  terms?: readonly { amount: number; date: string }[] | null;
  payer?: Partial<Payer> | null;
  metadata?: unknown;
}

/** A checkout intent and the state of its hosted payment page. */
export interface CheckoutIntent {
  id: number;
  /** The random part of the checkout page's address. */
  key: string;
  organizationSlug: string;
  request: CheckoutRequest;
  createdMs: number;
  /** End of the payment window on the sandbox clock. */
  expiresMs: number;
  failedAttempts: number;
  orderId?: number;
}

/** A notification URL registered by the partner, globally or for one organization. */
export interface Registration {
  /** Organization slug, or `null` for the partner-wide URL. */
  organizationSlug: string | null;
  /** Only this event type, or every type when `null`. */
  notificationType: string | null;
  url: string;
  signatureKey: string;
}
