import { ACCESS_TOKEN_STATE } from "../../contracts/pact/interaction.js";
import type { IsoDay } from "../../core/dates.js";
import type { FormPlace } from "../runner/context.js";
import { eventTypeOf, type PactInteraction } from "./pact-files.js";

/** A value verify found through the target's public API, or why it could not. */
export type Found<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The continuation tokens of one listing, read from the target's own walk of it. */
export interface ListingTokens {
  secondPageToken: Found<string>;
  finalPageToken: Found<string>;
}

/**
 * What verify discovered through the public API, as an integrator would, to answer the Pact files'
 * provider states on a target that offers none.
 */
export interface DiscoveredValues {
  /** The date verify judges at: a live target cannot be moved to the era's first day. */
  day: IsoDay;
  accessTokens: { reader: string; admin: Found<string> };
  /** The organization and form verify was given (`--organization`, `--form-type`, `--form-slug`). */
  form: FormPlace;
  /** Tokens by listing route id, for the listings the pact walks. */
  listings: ReadonlyMap<string, ListingTokens>;
  orderWithFile: Found<{ orderId: string; fileId: string }>;
  emptyForm: Found<FormPlace>;
  /** An item and its payment, read from the form's items (what "an order is paid" answers). */
  paidOrder: Found<{ itemId: string; paymentId: string | undefined }>;
  checkoutIntent: Found<{ organizationSlug: string; checkoutIntentId: string }>;
  /** Whether partner information lists a notification URL (what "a partner with a notification URL" needs). */
  partnerNotificationUrl: Found<true>;
  unverifiedOrganization: Found<string>;
  /** Event types of the notifications the receiver caught from the target. */
  capturedEvents: ReadonlySet<string>;
}

/** A state's answer: the values it gives, and why the others it would give are unknown. */
export type StateReply =
  | { ok: true; values: Readonly<Record<string, string>>; unknown: Readonly<Record<string, string>> }
  | { ok: false; reason: string };

type Params = Readonly<Record<string, unknown>> | undefined;

const given = (values: Record<string, string>, unknown: Record<string, string> = {}): StateReply => ({
  ok: true,
  values,
  unknown,
});

/** Spreads a found value into a reply, or names why its keys are unknown. */
function fromFound<T extends object>(found: Found<T>, keys: readonly string[]): StateReply {
  if (found.ok) {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(found.value)) {
      if (typeof value === "string") values[key] = value;
    }
    const absent = keys.filter((key) => values[key] === undefined);
    return given(
      values,
      Object.fromEntries(absent.map((key) => [key, "the target's answers did not give it"])),
    );
  }
  return given({}, Object.fromEntries(keys.map((key) => [key, found.reason])));
}

function listingReply(found: DiscoveredValues, params: Params): StateReply {
  const { organizationSlug, formType, formSlug } = found.form;
  const values: Record<string, string> = { organizationSlug, formType, formSlug };
  const unknown: Record<string, string> = {};
  const listing = typeof params?.listing === "string" ? params.listing : "v5.form-items";
  const tokens = found.listings.get(listing);
  for (const name of ["secondPageToken", "finalPageToken"] as const) {
    const token = tokens?.[name];
    if (token?.ok) values[name] = token.value;
    else unknown[name] = token?.reason ?? `${listing} was not walked`;
  }
  return given(values, unknown);
}

/** States that only cause a notification: answered by the notification the receiver caught. */
const MESSAGE_STATES: ReadonlySet<string> = new Set([
  "a form is updated",
  "an organization is updated",
  "a refund is refused",
  "a payment is contested",
]);

/**
 * The answer to a provider state from discovered values: what a state endpoint would return, without
 * creating or changing anything on the target. A state that cannot be answered at all gives its reason.
 */
export function answerState(found: DiscoveredValues, state: string, params: Params): StateReply {
  switch (state) {
    case "the service date":
      return given({ day: found.day });
    case ACCESS_TOKEN_STATE: {
      if (params?.role !== "admin") return given({ accessToken: found.accessTokens.reader });
      const admin = found.accessTokens.admin;
      return admin.ok ? given({ accessToken: admin.value }) : { ok: false, reason: admin.reason };
    }
    case "a form with entries":
      return listingReply(found, params);
    case "a verified association":
      return given({ organizationSlug: found.form.organizationSlug });
    case "an order with an attached file":
      return fromFound(found.orderWithFile, ["orderId", "fileId"]);
    case "a form with custom fields and options and no order":
      return found.emptyForm.ok ? given({ ...found.emptyForm.value }) : found.emptyForm;
    case "an order is paid":
      return fromFound(found.paidOrder, ["itemId", "paymentId", "orderId"]);
    case "a checkout intent":
      return found.checkoutIntent.ok ? given({ ...found.checkoutIntent.value }) : found.checkoutIntent;
    case "a partner with a notification URL":
      return found.partnerNotificationUrl.ok ? given({}) : found.partnerNotificationUrl;
    case "a newly registered association":
      return found.unverifiedOrganization.ok
        ? given({ organizationSlug: found.unverifiedOrganization.value })
        : found.unverifiedOrganization;
    case "an API client":
      return {
        ok: false,
        reason:
          "its token request carries the pact's own client id and secret, which only a provider with states registers (--state-url)",
      };
    default:
      if (MESSAGE_STATES.has(state)) return given({});
      return { ok: false, reason: `verify cannot answer the provider state "${state}" without --state-url` };
  }
}

/** Requests that would change the target's data or settings: never sent without states. */
const SIDE_EFFECTS: readonly { method: string; path: RegExp; reason: string }[] = [
  {
    method: "POST",
    path: /^\/v5\/(payments\/[^/]+\/refund|orders\/[^/]+\/cancel)$/,
    reason: "it would refund or cancel a real order on the target; runs with --state-url",
  },
  {
    method: "PUT",
    path: /^\/v5\/partners\/me\/api-notifications/,
    reason:
      "it would replace the partner's notification URLs on the target with the pact's example address; runs with --state-url",
  },
  {
    method: "DELETE",
    path: /^\/v5\/partners\/me\/api-notifications/,
    reason: "it would remove the partner's notification URLs on the target; runs with --state-url",
  },
];

/** The names a request takes from provider states (`${name}` in its generators). */
export function stateVariables(interaction: PactInteraction): string[] {
  const generators = (interaction.request as { generators?: unknown } | undefined)?.generators;
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if (record.type === "ProviderState" && typeof record.expression === "string") {
      for (const match of record.expression.matchAll(/\$\{([^}]+)\}/g)) if (match[1]) names.add(match[1]);
      return;
    }
    for (const child of Object.values(record)) walk(child);
  };
  walk(generators);
  return [...names];
}

/** The values an interaction's states answer, merged in order, and why the others are unknown. */
function stateValues(found: DiscoveredValues, interaction: PactInteraction) {
  const values: Record<string, string> = {};
  const unknown: Record<string, string> = {};
  for (const state of interaction.providerStates ?? []) {
    const reply = answerState(found, state.name, state.params);
    if (!reply.ok) return { refused: `"${state.name}": ${reply.reason}`, values, unknown };
    Object.assign(unknown, reply.unknown);
    Object.assign(values, reply.values);
  }
  return { refused: undefined, values, unknown };
}

/** The request path with the states' values in place of `${name}`, as the verifier sends it. */
export function resolvedPath(found: DiscoveredValues, interaction: PactInteraction): string | undefined {
  const generators = (interaction.request as { generators?: { path?: { expression?: unknown } } } | undefined)
    ?.generators;
  const expression = generators?.path?.expression;
  if (typeof expression !== "string") return interaction.request?.path;
  const { values } = stateValues(found, interaction);
  return expression.replace(/\$\{([^}]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * Why a message interaction cannot be answered: the target sent no notification of its event to the
 * receiver during the run. Undefined for an HTTP interaction, or when one was caught.
 */
export function notCaught(interaction: PactInteraction, caught: ReadonlySet<string>): string | undefined {
  if (interaction.type === "Synchronous/HTTP") return undefined;
  const eventType = eventTypeOf(interaction);
  if (typeof eventType === "string" && caught.has(eventType)) return undefined;
  return `the target sent no ${String(eventType)} notification to the receiver during the run`;
}

/** Why an interaction cannot be verified from discovered values, or undefined when it can. */
export function whyLeftOut(found: DiscoveredValues, interaction: PactInteraction): string | undefined {
  const uncaught = notCaught(interaction, found.capturedEvents);
  if (uncaught) return uncaught;
  const method = (interaction.request?.method ?? "GET").toUpperCase();
  const path = interaction.request?.path ?? "";
  const effect = SIDE_EFFECTS.find((e) => e.method === method && e.path.test(path));
  if (effect) return effect.reason;
  const { refused, values, unknown } = stateValues(found, interaction);
  if (refused) return refused;
  for (const name of stateVariables(interaction)) {
    if (values[name] !== undefined) continue;
    return `no ${name}: ${unknown[name] ?? "no provider state of the interaction gives it"}`;
  }
  return undefined;
}

/** An interaction left out of the file handed to the verifier, and why. */
export interface Skipped {
  description: string;
  reason: string;
}

/** The interactions `why` finds no reason to leave out, and the others with its reason, in the file's order. */
export function planBy(
  interactions: readonly PactInteraction[],
  why: (interaction: PactInteraction) => string | undefined,
): { kept: PactInteraction[]; skipped: Skipped[] } {
  const plan: ReturnType<typeof planBy> = { kept: [], skipped: [] };
  for (const interaction of interactions) {
    const reason = why(interaction);
    if (reason === undefined) plan.kept.push(interaction);
    else plan.skipped.push({ description: interaction.description, reason });
  }
  return plan;
}

/** The interactions that can be verified from discovered values, and the others with the reason. */
export const planInteractions = (found: DiscoveredValues, interactions: readonly PactInteraction[]) =>
  planBy(interactions, (interaction) => whyLeftOut(found, interaction));
