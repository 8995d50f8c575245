import type { IsoDay } from "../../core/dates.js";
import type { Contract } from "../types.js";
import { exampleOf } from "./examples.js";
import { type HttpSpec, httpInteraction, type ProviderStateRef } from "./interaction.js";

/**
 * Interactions of the non-listing routes: the seed's (token, public form, order detail and files,
 * partner, checkout), then those the provider's published document adds (organizations, forms, items,
 * payments, refunds, cancellations, users, partners, notification URL removal).
 */
export function resourceInteractions(contract: Contract, date: IsoDay): Record<string, unknown>[] {
  const body = (schema: string) => exampleOf(contract.schemas, schema);
  /** Route `id` called as its catalogue entry says (method, path, the token its auth needs), answering 200 unless `spec` says otherwise. */
  const call = (
    id: string,
    description: string,
    states: ProviderStateRef[],
    spec: Partial<HttpSpec> = {},
  ) => {
    const route = contract.routes.byId(id);
    const role =
      route.auth === "organization_admin" ? "admin" : route.auth === "bearer" ? "reader" : undefined;
    return httpInteraction({
      description,
      states,
      method: route.method,
      path: route.path,
      role,
      status: 200,
      ...spec,
    });
  };
  const fileState = { name: "an order with an attached file" };
  const verified = { name: "a verified association" };
  const paid = { name: "an order is paid" };
  // What a checkout intent is created with, in both interactions that create one.
  const intentRequest = { contentType: "application/json", content: body("checkout-intent-request").value };
  return [
    call(
      "token",
      "token: client_credentials grant",
      [
        {
          name: "an API client",
          params: { clientId: "assopay-pact-client", clientSecret: "assopay-pact-secret" },
        },
      ],
      {
        requestBody: {
          contentType: "application/x-www-form-urlencoded",
          content:
            "grant_type=client_credentials&client_id=assopay-pact-client&client_secret=assopay-pact-secret",
        },
        responseBody: body("token"),
      },
    ),
    call(
      "v5.public-form",
      "public form: customFields and extraOptions before the first order",
      [{ name: "a form with custom fields and options and no order" }],
      {
        responseBody: {
          value: {
            formSlug: "gala-2025",
            formType: "Event",
            customFields: [{ id: 1, type: "File", label: "Certificate" }],
            extraOptions: [{ id: 1, label: "Dinner" }],
          },
          rules: {
            "$.formSlug": [{ match: "type" }],
            "$.formType": [{ match: "type" }],
            "$.customFields": [{ match: "type", min: 1 }],
            "$.customFields[*].id": [{ match: "integer" }],
            "$.customFields[*].type": [{ match: "type" }],
            "$.customFields[*].label": [{ match: "type" }],
            "$.extraOptions": [{ match: "type", min: 1 }],
            "$.extraOptions[*].id": [{ match: "integer" }],
            "$.extraOptions[*].label": [{ match: "type" }],
          },
        },
      },
    ),
    call("v5.order-detail", "order detail: the URL of each attached file", [fileState], {
      responseBody: body("order-detail"),
    }),
    call("v5.attached-file", "attached file: downloads with an organization_admin token", [fileState]),
    call("v5.attached-file", "attached file: refused to a token without organization_admin", [fileState], {
      role: "reader",
      status: 403,
    }),
    call("v5.attached-file", "attached file: refused without a token", [fileState], {
      role: undefined,
      status: 401,
    }),
    call(
      "v5.partner-info",
      "partner information: each notification URL with its signing key",
      [{ name: "a partner with a notification URL" }],
      { responseBody: body("partner") },
    ),
    // Receiver URLs on loopback (port 9, discard, where nothing answers): a provider verified with these
    // files must not post signed notifications off its machine (docs/pact.md, "Notifications").
    call("v5.notification-url", "notification URL registration: answers the URL and its signing key", [], {
      requestBody: { contentType: "application/json", content: { url: "http://127.0.0.1:9/assopay/hook" } },
      responseBody: body("notification-url"),
    }),
    call(
      "v5.notification-url-org",
      "notification URL registration for one organization: answers the URL and its signing key",
      [verified],
      {
        requestBody: {
          contentType: "application/json",
          content: { url: "http://127.0.0.1:9/assopay/org-hook" },
        },
        responseBody: body("notification-url"),
      },
    ),
    call("v5.checkout-create", "checkout intent: created for a verified association", [verified], {
      requestBody: intentRequest,
      responseBody: body("checkout-intent-created"),
    }),
    call("v5.checkout-read", "checkout intent: read back", [{ name: "a checkout intent" }], {
      responseBody: body("checkout-intent"),
    }),
    ...(contract.timeline.inForce("new-association-verification", date)
      ? [
          call(
            "v5.checkout-create",
            "checkout intent: refused for a newly registered association not yet verified",
            [{ name: "a newly registered association" }],
            { requestBody: intentRequest, status: 400, statusClass: "clientError" },
          ),
        ]
      : []),
    // The routes the provider's published document adds to the seed's.
    call("v5.organization", "organization: its public description", [verified], {
      responseBody: body("organization"),
    }),
    call("v5.organization-forms", "organization forms: one page of forms", [verified], {
      responseBody: body("form-page"),
    }),
    call("v5.organization-form-types", "organization form types: the types it uses", [verified], {
      responseBody: body("form-types"),
    }),
    call("v5.user-organizations", "user organizations: the organizations of the caller", [], {
      responseBody: body("organization-list"),
    }),
    call("v5.partner-organizations", "partner organizations: one page", [], {
      responseBody: body("organization-page"),
    }),
    call("v5.item", "item detail: the item with its order and payments", [paid], {
      responseBody: body("item-detail"),
    }),
    call("v5.payment", "payment detail: how a webhook confirms a notified payment", [paid], {
      responseBody: body("payment"),
    }),
    call("v5.payment-refund", "payment refund: answers the refund operation", [paid], {
      responseBody: body("refund-operation"),
    }),
    call("v5.order-cancel", "order cancellation: answers success", [paid]),
    call("v5.notification-url-delete", "notification URL removal (partner-wide)", [
      { name: "a partner with a notification URL" },
    ]),
    call("v5.notification-url-org-delete", "notification URL removal for one organization", [verified]),
  ];
}
