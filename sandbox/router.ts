import { type DatedRules, leftOutAt, type Route } from "../contracts/index.js";
import { handleAdmin } from "./admin.js";
import type { Client } from "./auth.js";
import { checkoutHandlers } from "./checkout.js";
import type { RouteHandler, SandboxCore } from "./core.js";
import { listingHandler } from "./handlers/listings.js";
import { orderHandlers } from "./handlers/orders.js";
import { organizationHandlers } from "./handlers/organizations.js";
import { partnerHandlers } from "./handlers/partners.js";
import { tokenHandler } from "./handlers/token.js";
import { type Exchange, sendErrors, sendNotFound } from "./http.js";

/** The v5 route the `v5-off-with-v3` fault takes down with v3. */
const V5_ROUTE_TAKEN_DOWN = "v5.org-payments";

/**
 * Handlers by route id. The order, item and payment listings are not here: they are handled from their
 * pagination spec (handlers/listings.ts); the short listings are, and page through listing.ts.
 */
const handlers: Readonly<Record<string, RouteHandler>> = {
  token: tokenHandler,
  ...organizationHandlers,
  ...orderHandlers,
  ...partnerHandlers,
  ...checkoutHandlers,
};

/** The handler of a catalogue route, or `undefined` when the sandbox does not serve it. */
export function handlerFor(route: Route): RouteHandler | undefined {
  return handlers[route.id] ?? (route.pagination ? listingHandler(route) : undefined);
}

/** Whether the route answers at the sandbox's date: the timeline decides, a version fault bends it. */
function answers(core: SandboxCore, route: Route, rules: DatedRules): boolean {
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

/** Whether a path lies under the authenticated API prefix `/v5` (any case, as the service matches). */
function underV5(pathname: string): boolean {
  return /^\/v5(\/|$)/i.test(pathname);
}

/**
 * Authenticates a call (401 when the bearer is missing, unknown or expired); `undefined` when answered.
 * `routed` says whether the path is a catalogue route (the `lenient-tokens` fault bends only those).
 */
function authenticate(core: SandboxCore, ex: Exchange, routed: boolean): Client | undefined {
  const result = core.auth.authenticate(ex.req.headers.authorization);
  if (result.ok) return result.client;
  if (core.fault === "lenient-tokens" && routed && result.reason !== "missing") return core.auth.reader;
  sendErrors(ex, 401, "Unauthorized", UNAUTHORIZED[result.reason], {
    "www-authenticate": `Bearer error="invalid_token", error_description="${result.reason}"`,
  });
  return undefined;
}

/** Checks a route's right; answers 401/403 itself and returns `undefined` when the call may not go on. */
function authorize(
  core: SandboxCore,
  ex: Exchange,
  route: Route,
  known: Client | undefined,
): Client | undefined | "open" {
  if (opensWithoutToken(core, route)) return "open";
  const client = known ?? authenticate(core, ex, true);
  if (client === undefined) return undefined;
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

/** Whether a route answers without any token (no right, or the `open-files` fault). */
function opensWithoutToken(core: SandboxCore, route: Route): boolean {
  return route.auth === "none" || (core.fault === "open-files" && route.id === "v5.attached-file");
}

/** A request, top to bottom: the sandbox's own endpoints, then the catalogue route, its date, its right. */
export function createRouter(core: SandboxCore): (ex: Exchange) => Promise<void> {
  const routeHandlers = new Map(core.contract.routes.all.map((r) => [r.id, handlerFor(r)]));
  return async (ex) => {
    if (await handleAdmin(core, ex)) return;
    const match = core.contract.routes.match(ex.method, ex.pathname);
    // The service checks the bearer before it looks the route up: under /v5 a missing or invalid token
    // is a 401 on any path, so a client can log in again; only a valid token learns a route is unknown.
    let known: Client | undefined;
    if (!match && core.fault === "routes-before-auth") {
      sendNotFound(ex, `No route ${ex.method} ${ex.pathname}.`);
      return;
    }
    if (underV5(ex.pathname) && !(match && opensWithoutToken(core, match.route))) {
      known = authenticate(core, ex, match !== undefined);
      if (known === undefined) return;
    }
    if (!match) {
      // A route of the provider's document the sandbox leaves out: a 404 still (a client may retry a
      // 5xx), whose message says the service has it and why the sandbox does not.
      const omitted = leftOutAt(core.contract.leftOut, ex.method, ex.pathname);
      sendNotFound(
        ex,
        omitted
          ? `${omitted.method} ${omitted.path} is in the provider's document, but the sandbox leaves it out: ${omitted.reason} (contracts/left-out.yaml).`
          : `No route ${ex.method} ${ex.pathname}.`,
      );
      return;
    }
    const { route, params } = match;
    const rules = core.contract.timeline.datedRulesAt(route, core.clock.day());
    if (!answers(core, route, rules)) {
      sendNotFound(
        ex,
        `${route.version} route ${route.method} ${route.path} does not answer on ${rules.date}.`,
      );
      return;
    }
    // The changes still ahead of the route, announced on every answer it gives (RFC 9745, RFC 8594).
    for (const [name, value] of Object.entries(
      core.contract.timeline.deprecationHeadersAt(route, rules.date),
    )) {
      ex.res.setHeader(name, value);
    }
    if (core.fault === "draft-deprecation") ex.res.setHeader("deprecation", "true");
    const client = authorize(core, ex, route, known);
    if (client === undefined) return;
    const handler = routeHandlers.get(route.id);
    if (!handler) {
      sendErrors(ex, 501, "NotImplemented", `The sandbox does not serve route ${route.id} yet.`);
      return;
    }
    await handler(core, ex, { params, rules, client: client === "open" ? core.auth.reader : client });
  };
}
