import type { RouteHandler, SandboxCore } from "../core.js";
import type { Registration } from "../data/model.js";
import { type Exchange, sendErrors, sendJson, sendValidation } from "../http.js";
import { readRequestBody } from "../request-body.js";

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
export const partnerInfoHandler: RouteHandler = (core, ex) => {
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

async function registerFromBody(core: SandboxCore, ex: Exchange, organizationSlug: string | null) {
  const route = core.contract.routes.byId(
    organizationSlug === null ? "v5.notification-url" : "v5.notification-url-org",
  );
  const body = await readRequestBody<{ url: string; notificationType?: string | null }>(core, ex, route);
  if (!body) return;
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
}

/** `PUT /v5/partners/me/api-notifications`: the partner-wide notification URL. */
export const notificationUrlHandler: RouteHandler = (core, ex) => registerFromBody(core, ex, null);

/** `PUT /v5/partners/me/api-notifications/organizations/{organizationSlug}`. */
export const organizationNotificationUrlHandler: RouteHandler = (core, ex, call) => {
  const organization = core.store.organization(call.params.organizationSlug ?? "");
  if (!organization) {
    sendErrors(ex, 404, "NotFound", `No organization with slug "${call.params.organizationSlug}".`);
    return;
  }
  return registerFromBody(core, ex, organization.slug);
};

/** Removes the registrations of one scope: every type, or only `notificationType`. */
function unregister(core: SandboxCore, ex: Exchange, organizationSlug: string | null): void {
  const type = ex.query.get("notificationType")?.toLowerCase();
  core.store.registrations = core.store.registrations.filter(
    (r) =>
      !(
        r.organizationSlug === organizationSlug &&
        (type === undefined || (r.notificationType ?? "").toLowerCase() === type)
      ),
  );
  sendJson(ex, 200, {});
}

/** `DELETE /v5/partners/me/api-notifications`: the partner-wide URLs stop receiving notifications. */
export const deleteNotificationUrlHandler: RouteHandler = (core, ex) => unregister(core, ex, null);

/** `DELETE /v5/partners/me/api-notifications/organizations/{organizationSlug}`. */
export const deleteOrganizationNotificationUrlHandler: RouteHandler = (core, ex, call) => {
  const organization = core.store.organization(call.params.organizationSlug ?? "");
  if (!organization) {
    sendErrors(ex, 404, "NotFound", `No organization with slug "${call.params.organizationSlug}".`);
    return;
  }
  unregister(core, ex, organization.slug);
};
