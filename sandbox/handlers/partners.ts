import { organizationOf, type RouteHandler, type SandboxCore } from "../core.js";
import type { Registration } from "../data/model.js";
import { readJson, sendJson, sendValidation } from "../http.js";

/** The service keeps up to 5 notification URLs per partner. */
const MAX_REGISTRATIONS = 5;

function registrationView(r: Registration) {
  return {
    url: r.url,
    ...(r.notificationType === null ? {} : { apiNotificationType: r.notificationType }),
    signatureKey: r.signatureKey,
  };
}

/** `GET /v5/partners/me`: the partner, with each notification URL and its signing key. */
const partnerInfo: RouteHandler = (core, ex) => {
  sendJson(ex, 200, {
    name: "assopay-sandbox-partner",
    displayName: "assopay sandbox partner",
    description: "The partner of the assopay sandbox",
    url: core.baseUrl,
    apiClient: {
      id: core.auth.admin.id,
      partnerName: "assopay-sandbox-partner",
      privileges: ["AccessPublicData", "AccessTransactions", "Checkout", "RefundManagement"],
      domain: core.baseUrl,
    },
    urlNotificationList: core.store.registrations.map(registrationView),
    partnerStatistics: {
      linkedOrganizationsCount: 1,
      checkoutCollectedAmount: 0,
      organizationsUsingCheckout: 1,
    },
  });
};

/** Registers (or replaces) the URL for one scope and type; the same URL keeps the same key. */
export function register(
  core: SandboxCore,
  organizationSlug: string | null,
  url: string,
  notificationType: string | null,
): Registration {
  const key = core.store
    .derive(`signature|${organizationSlug ?? "*"}|${notificationType ?? "*"}|${url}`)
    .slice(0, 32);
  const registration: Registration = { organizationSlug, notificationType, url, signatureKey: key };
  const others = core.store.registrations.filter(
    (r) => !(r.organizationSlug === organizationSlug && r.notificationType === notificationType),
  );
  core.store.registrations = [...others, registration].slice(-MAX_REGISTRATIONS);
  return registration;
}

/** A route handler for one scope: the partner's (`organizationSlug` null) or one organization's. */
type ScopedAction = (
  ...args: [...Parameters<RouteHandler>, organizationSlug: string | null]
) => ReturnType<RouteHandler>;

/**
 * Registers the URL of a `PUT` body, checked against the route's request schema (400 in the ASP.NET
 * validation shape otherwise), for the partner (`organizationSlug` null) or one organization.
 */
const registerFromBody: ScopedAction = async (core, ex, call, organizationSlug) => {
  const parsed = await readJson(ex);
  if (!parsed.ok) return;
  const schema = call.rules.route.requestBody?.schema;
  const diagnostics =
    schema === undefined ? [] : core.contract.schemas.validate(schema, parsed.value, "body");
  if (diagnostics.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const d of diagnostics) {
      const field = d.path.replace(/^body\.?/, "") || "$";
      errors[field] = [...(errors[field] ?? []), d.message];
    }
    sendValidation(ex, errors);
    return;
  }
  const body = parsed.value as { url: string; notificationType?: string | null };
  let type: string | null = null;
  if (body.notificationType !== undefined && body.notificationType !== null) {
    const known = core.contract.notificationTypes.find(
      (t) => t.eventType.toLowerCase() === String(body.notificationType).toLowerCase(),
    );
    if (!known) {
      const names = core.contract.notificationTypes.map((t) => t.eventType).join(", ");
      sendValidation(ex, {
        notificationType: [`Unknown notification type '${body.notificationType}': use ${names}.`],
      });
      return;
    }
    type = known.eventType;
  }
  sendJson(ex, 200, registrationView(register(core, organizationSlug, body.url, type)));
};

/** Removes the registrations of one scope: every type, or only `notificationType`. */
const unregister: ScopedAction = (core, ex, _call, organizationSlug) => {
  const type = ex.query.get("notificationType")?.toLowerCase();
  core.store.registrations = core.store.registrations.filter(
    (r) =>
      !(
        r.organizationSlug === organizationSlug &&
        (type === undefined || (r.notificationType ?? "").toLowerCase() === type)
      ),
  );
  sendJson(ex, 200, {});
};

/** A route for the partner-wide URLs and its twin for one organization's (404 for an unknown one). */
function scoped(
  partnerWide: string,
  ofOrganization: string,
  act: ScopedAction,
): Record<string, RouteHandler> {
  return {
    [partnerWide]: (core, ex, call) => act(core, ex, call, null),
    [ofOrganization]: (core, ex, call) => {
      const organization = organizationOf(core, ex, call.params.organizationSlug);
      if (organization) return act(core, ex, call, organization.slug);
    },
  };
}

/**
 * The partner and its notification URLs: `PUT` registers one (partner-wide, or for an organization),
 * `DELETE` stops one scope's URLs receiving notifications.
 */
export const partnerHandlers: Readonly<Record<string, RouteHandler>> = {
  "v5.partner-info": partnerInfo,
  ...scoped("v5.notification-url", "v5.notification-url-org", registerFromBody),
  ...scoped("v5.notification-url-delete", "v5.notification-url-org-delete", unregister),
};
