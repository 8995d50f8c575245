import type { Route, RouteRules } from "../contracts/index.js";
import { handleAdmin } from "./admin.js";
import type { Client } from "./auth.js";
import type { RouteHandler, SandboxCore } from "./core.js";
import { checkoutCreateHandler, checkoutReadHandler } from "./handlers/checkout.js";
import { publicFormHandler } from "./handlers/forms.js";
import { listingHandler } from "./handlers/listings.js";
import { attachedFileHandler, orderDetailHandler } from "./handlers/orders.js";
import {
  notificationUrlHandler,
  organizationNotificationUrlHandler,
  partnerInfoHandler,
} from "./handlers/partners.js";
import { tokenHandler } from "./handlers/token.js";
import { type Exchange, sendErrors, sendNotFound } from "./http.js";

/** The v5 route the `v5-off-with-v3` fault takes down with v3. */
const V5_ROUTE_TAKEN_DOWN = "v5.org-payments";

/** Handlers of the routes that do not paginate, by route id (listings are handled from their spec). */
const handlers: Readonly<Record<string, RouteHandler>> = {
  token: tokenHandler,
  "v5.public-form": publicFormHandler,
  "v5.order-detail": orderDetailHandler,
  "v5.attached-file": attachedFileHandler,
  "v5.partner-info": partnerInfoHandler,
  "v5.notification-url": notificationUrlHandler,
  "v5.notification-url-org": organizationNotificationUrlHandler,
  "v5.checkout-create": checkoutCreateHandler,
  "v5.checkout-read": checkoutReadHandler,
};

/** The handler of a catalogue route, or `undefined` when the sandbox does not serve it. */
export function handlerFor(route: Route): RouteHandler | undefined {
  return route.pagination ? listingHandler(route) : handlers[route.id];
}

/** Whether the route answers at the sandbox's date: the timeline decides, a version fault bends it. */
function answers(core: SandboxCore, route: Route, rules: RouteRules): boolean {
  switch (core.fault) {
    case "v3-alive":
      return true;
    case "v3-off-early":
      return route.version !== "v3";
    case "v5-off-with-v3":
      return (
        rules.served &&
        !(route.id === V5_ROUTE_TAKEN_DOWN && core.contract.timeline.inForce("v3-switch-off", rules.date))
      );
    default:
      return rules.served;
  }
}

const UNAUTHORIZED: Readonly<Record<"missing" | "invalid" | "expired", string>> = {
  missing: "No access token: send 'Authorization: Bearer <access_token>' (get one with POST /oauth2/token).",
  invalid: "The access token is not valid.",
  expired: "The access token has expired: refresh it (grant_type=refresh_token) or ask for a new one.",
};

/** Authenticates a call; answers 401/403 itself and returns `undefined` when the call may not go on. */
function authorize(core: SandboxCore, ex: Exchange, route: Route): Client | undefined | "open" {
  if (route.auth === "none") return "open";
  if (core.fault === "open-files" && route.id === "v5.attached-file") return "open";
  const result = core.auth.authenticate(ex.req.headers.authorization);
  let client: Client;
  if (result.ok) client = result.client;
  else if (core.fault === "lenient-tokens" && result.reason !== "missing") client = core.auth.reader;
  else {
    sendErrors(ex, 401, "Unauthorized", UNAUTHORIZED[result.reason], {
      "www-authenticate": `Bearer error="invalid_token", error_description="${result.reason}"`,
    });
    return undefined;
  }
  if (core.fault === "files-for-readers" && route.id === "v5.attached-file") return client;
  if (!core.auth.allows(client, route.auth)) {
    sendErrors(
      ex,
      403,
      "Forbidden",
      `insufficient Privileges: this call needs the ${route.auth} right (OrganizationAdmin).`,
    );
    return undefined;
  }
  return client;
}

/** A request, top to bottom: the sandbox's own endpoints, then the catalogue route, its date, its right. */
export function createRouter(core: SandboxCore): (ex: Exchange) => Promise<void> {
  const routeHandlers = new Map(core.contract.routes.all.map((r) => [r.id, handlerFor(r)]));
  return async (ex) => {
    if (await handleAdmin(core, ex)) return;
    const match = core.contract.routes.match(ex.method, ex.pathname);
    if (!match) {
      sendNotFound(ex, `No route ${ex.method} ${ex.pathname}.`);
      return;
    }
    const { route, params } = match;
    const rules = core.contract.timeline.rulesAt(route, core.clock.day());
    if (!answers(core, route, rules)) {
      sendNotFound(
        ex,
        `${route.version} route ${route.method} ${route.path} does not answer on ${rules.date}.`,
      );
      return;
    }
    const client = authorize(core, ex, route);
    if (client === undefined) return;
    const handler = routeHandlers.get(route.id);
    if (!handler) {
      sendErrors(ex, 501, "NotImplemented", `The sandbox does not serve route ${route.id} yet.`);
      return;
    }
    await handler(core, ex, { params, rules, client: client === "open" ? core.auth.reader : client });
  };
}
