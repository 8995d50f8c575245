import { createIntent, intentView, redirectUrl } from "../checkout.js";
import { readCheckoutRequest, sendServiceErrors, serviceError } from "../checkout-request.js";
import type { RouteHandler } from "../core.js";
import { sendErrors, sendJson } from "../http.js";

/** `POST /v5/organizations/{organizationSlug}/checkout-intents`. */
export const checkoutCreateHandler: RouteHandler = async (core, ex, call) => {
  const route = core.contract.routes.byId("v5.checkout-create");
  const request = await readCheckoutRequest(core, ex, route);
  if (!request) return;
  const created = createIntent(core, call.params.organizationSlug ?? "", request, call.rules);
  if (!created.ok) {
    if (created.status === 400) sendServiceErrors(ex, 400, [serviceError(created.code, created.message)]);
    else sendErrors(ex, created.status, created.code, created.message);
    return;
  }
  sendJson(ex, 200, { id: created.intent.id, redirectUrl: redirectUrl(core, created.intent) });
};

/** `GET /v5/organizations/{organizationSlug}/checkout-intents/{checkoutIntentId}`. */
export const checkoutReadHandler: RouteHandler = (core, ex, call) => {
  const intent = core.store.intents.get(Number(call.params.checkoutIntentId));
  if (
    !intent ||
    intent.organizationSlug.toLowerCase() !== (call.params.organizationSlug ?? "").toLowerCase()
  ) {
    sendErrors(
      ex,
      404,
      "NotFound",
      `No checkout intent ${call.params.checkoutIntentId} in "${call.params.organizationSlug}".`,
    );
    return;
  }
  sendJson(ex, 200, intentView(core, intent));
};
