import { loadContract, type RouteCatalogue } from "../../contracts/index.js";
import {
  type DataFile,
  dataEnums,
  type FormEntry,
  type OrderEntry,
  type OrganizationEntry,
  type TierEntry,
} from "./data-file.js";
import {
  asArray,
  asCents,
  asId,
  asObject,
  asString,
  emptyHints,
  type FormHints,
  fitForm,
  type Json,
  mergeOrders,
  orderFromRecorded,
} from "./recorded-orders.js";

/** One recorded answer, whatever recorded it (a cassette's interaction, read by its own reader). */
export interface RecordedAnswer {
  method: string;
  /** The request's path, as sent (percent-encoding included). */
  path: string;
  status: number;
  /** The answer's JSON body, when it had one. */
  body: unknown;
  /** The request's body as text, when it was text (the token request's form). */
  requestText?: string;
}

interface FormSeen {
  entry: FormEntry;
  publicForm?: Json;
  hints: FormHints;
  orders: Map<number, OrderEntry>;
}

const key = (...parts: string[]) => parts.join("/").toLowerCase();

/**
 * The data a recorded session shows, as a data file: the organizations, forms (public form: tiers, custom
 * fields, options), orders and payments its answers carry (2xx JSON answers of the v5 routes `routes`
 * names: the contract's catalogue by default). Redacted values
 * stay the placeholders they are; what the recording only hints at (a form named by an order, an
 * organization named by a form) is declared with the rest left to the sandbox's defaults.
 */
export function dataFromRecording(
  answers: readonly RecordedAnswer[],
  routes: RouteCatalogue = loadContract().routes,
): DataFile {
  const enums = dataEnums();
  const canonical = (type: string) =>
    enums.formType.find((t) => t.toLowerCase() === type.toLowerCase()) ?? type;
  const organizations = new Map<string, OrganizationEntry>();
  const forms = new Map<string, FormSeen>();
  const organization = (slug: string): OrganizationEntry => {
    const found = organizations.get(slug.toLowerCase());
    if (found) return found;
    const made: OrganizationEntry = { slug: slug.toLowerCase() };
    organizations.set(slug.toLowerCase(), made);
    return made;
  };
  const form = (slug: string, anyCase: string, formSlug: string): FormSeen => {
    organization(slug);
    const type = canonical(anyCase);
    const id = key(slug, type, formSlug);
    const found = forms.get(id);
    if (found) return found;
    const made: FormSeen = {
      entry: { type, slug: formSlug.toLowerCase() },
      hints: emptyHints(),
      orders: new Map(),
    };
    forms.set(id, made);
    return made;
  };
  const addOrder = (seen: FormSeen, record: Json) => {
    const order = orderFromRecorded(record, seen.hints);
    if (!order?.id) return;
    const known = seen.orders.get(order.id);
    seen.orders.set(order.id, known ? mergeOrders(known, order) : order);
  };
  const orderForm = (record: Json): FormSeen | undefined => {
    const light = asObject(record.order) ?? record;
    const slug = asString(light.organizationSlug);
    const type = asString(light.formType);
    const formSlug = asString(light.formSlug);
    return slug && type && formSlug ? form(slug, type, formSlug) : undefined;
  };

  const clients = new Map<string, ClientEntry>();
  for (const answer of answers) {
    const match = routes.match(answer.method, answer.path);
    const client = recordedClient(answer, match?.route.id);
    if (client) clients.set(client.id, client);
    if (match?.route.method !== "GET" || match.route.version !== "v5") continue;
    if (answer.status < 200 || answer.status > 299) continue;
    const { route, params } = match;
    const { organizationSlug: slug = "", formType: type = "", formSlug } = params;
    const body = answer.body;
    if (route.id === "v5.user-organizations") {
      for (const entry of asArray(body)) noteOrganization(organization, entry);
    } else if (route.id === "v5.partner-organizations") {
      for (const entry of asArray(asObject(body)?.data))
        noteOrganization(organization, asObject(entry.organization) ?? {});
    } else if (route.id === "v5.organization") {
      noteOrganization(organization, asObject(body) ?? {});
    } else if (route.id === "v5.organization-forms") {
      // A form of the listing names itself as an order names its form.
      for (const entry of asArray(asObject(body)?.data)) {
        const seen = orderForm(entry);
        if (seen) noteTitle(seen, entry);
      }
    } else if (route.id === "v5.public-form") {
      const seen = form(slug, type, formSlug ?? "");
      seen.publicForm = asObject(body);
      noteTitle(seen, seen.publicForm ?? {});
    } else if (route.pagination && formSlug !== undefined) {
      const listed = form(slug, type, formSlug);
      for (const entry of asArray(asObject(body)?.data ?? asObject(body)?.items)) {
        const payment = asObject(entry.order) && "paymentMeans" in entry;
        if (!payment) addOrder(orderForm(entry) ?? listed, entry);
      }
    } else if (route.pagination) {
      for (const entry of asArray(asObject(body)?.data)) {
        const seen = orderForm(entry);
        if (seen && !("paymentMeans" in entry)) addOrder(seen, entry);
      }
    } else if (route.id === "v5.order-detail") {
      const record = asObject(body);
      const seen = record && orderForm(record);
      if (record && seen) addOrder(seen, record);
    }
  }

  for (const [slug, entry] of organizations) {
    if (entry.type !== undefined && !enums.organizationType.includes(entry.type)) entry.type = undefined;
    const own = [...forms.entries()]
      .filter(([id]) => id.startsWith(`${slug}/`))
      .map(([, seen]) => fitForm(formEntry(seen), enums))
      .filter((f) => enums.formType.includes(f.type));
    if (own.length > 0) entry.forms = own;
  }
  // Through JSON: what was left to the defaults (`undefined`) is not written.
  return JSON.parse(
    JSON.stringify({
      ...(clients.size > 0 ? { clients: [...clients.values()] } : {}),
      organizations: [...organizations.values()],
    }),
  ) as DataFile;
}

type ClientEntry = NonNullable<DataFile["clients"]>[number];

/**
 * The client a token request let in (`client_credentials`, answered 2xx): its id, and its secret as the
 * recording holds it (a `<secret:…>` placeholder; the sandbox accepts the secret it stands for). A
 * recording does not say which rights a client has: it gets `organization_admin`, so that every call
 * the app made is answered.
 */
function recordedClient(answer: RecordedAnswer, routeId: string | undefined): ClientEntry | undefined {
  if (routeId !== "token" || answer.status < 200 || answer.status > 299) return undefined;
  if (answer.requestText === undefined) return undefined;
  const form = new URLSearchParams(answer.requestText);
  const [id, secret] = [form.get("client_id"), form.get("client_secret")];
  if (form.get("grant_type") !== "client_credentials" || !id || !secret) return undefined;
  return { id, secret, rights: ["organization_admin"] };
}

function noteOrganization(organization: (slug: string) => OrganizationEntry, body: Json): void {
  const slug = asString(body.organizationSlug) ?? asString(body.slug);
  if (!slug || !/^[a-z0-9][a-z0-9-]*$/i.test(slug)) return;
  const entry = organization(slug);
  const name = asString(body.name);
  if (name && name.length <= 250) entry.name = name;
  for (const field of ["city", "zipCode", "description", "logo"] as const) {
    const value = asString(body[field]);
    if (value !== undefined) entry[field] = value;
  }
  const type = asString(body.type);
  if (type) entry.type = type;
  const updated = asString(body.updateDate);
  if (updated && !Number.isNaN(Date.parse(updated))) entry.updateDate = updated;
  if (typeof body.isAuthenticated === "boolean") entry.verified = body.isAuthenticated;
}

function noteTitle(seen: FormSeen, body: Json): void {
  const title = asString(body.title);
  if (title && title.length <= 250) seen.entry.title = title;
}

/**
 * A tier for the items recorded without one (listings in the seed's shape): the form's title, the items'
 * type, a fixed price when every amount was the same, else pay-what-you-want over the amounts seen.
 */
function untieredTier(seen: FormSeen): TierEntry[] {
  const { amounts, type } = seen.hints.untiered;
  if (amounts.length === 0 || seen.hints.tiers.size > 0) return [];
  const min = Math.min(...amounts);
  const max = Math.max(...amounts);
  return [
    {
      label: seen.entry.title ?? seen.entry.slug,
      ...(type ? { type } : {}),
      ...(min === max ? { price: min } : { minAmount: min, maxAmount: max }),
    },
  ];
}

/** A form as seen: its public form where recorded, else what its orders showed; its orders (`undefined`: not seen). */
function formEntry(seen: FormSeen): FormEntry {
  const publicForm = seen.publicForm;
  const tiers = asArray(publicForm?.tiers).filter((t) => t.tierType !== "Donation" || asCents(t.price) !== 0);
  const fields = asArray(publicForm?.customFields ?? tiers[0]?.customFields);
  const options = asArray(publicForm?.extraOptions ?? tiers[0]?.extraOptions);
  const declaredTiers =
    tiers.length > 0
      ? tiers.map((t) => ({
          id: asId(t.id),
          label: asString(t.label) ?? `Tarif ${asId(t.id) ?? ""}`.trim(),
          type: asString(t.tierType),
          ...(asCents(t.minAmount) !== undefined && !asCents(t.price)
            ? { minAmount: asCents(t.minAmount) }
            : { price: asCents(t.price) ?? 0 }),
        }))
      : [...seen.hints.tiers.values(), ...untieredTier(seen)];
  const declaredFields =
    fields.length > 0
      ? fields.map((f) => ({
          id: asId(f.id),
          label: asString(f.label) ?? "",
          type: asString(f.type) ?? "TextInput",
          required: typeof f.isRequired === "boolean" ? f.isRequired : undefined,
          ...(Array.isArray(f.values) && f.values.length > 0 ? { values: f.values.map(String) } : {}),
        }))
      : [...seen.hints.fields.values()];
  const declaredOptions =
    options.length > 0
      ? options.map((o) => ({
          id: asId(o.id),
          label: asString(o.label) ?? "",
          price: asCents(o.price) ?? 0,
          description: asString(o.description),
        }))
      : [...seen.hints.options.values()];
  const donation = tiers.length !== asArray(publicForm?.tiers).length;
  return {
    ...seen.entry,
    ...(declaredTiers.length > 0 ? { tiers: declaredTiers } : {}),
    ...(declaredFields.length > 0 ? { customFields: declaredFields } : {}),
    ...(declaredOptions.length > 0 ? { extraOptions: declaredOptions } : {}),
    ...(donation ? { donation: true } : {}),
    orders: [...seen.orders.values()].sort((a, b) => (a.id ?? 0) - (b.id ?? 0)),
  };
}
