import type { IsoDay } from "../../core/dates.js";
import type { Contract } from "../types.js";
import { exampleOf } from "./examples.js";
import { httpInteraction } from "./interaction.js";

/** Interactions of the non-listing routes: token, public form, order detail and files, partner, checkout. */
export function resourceInteractions(contract: Contract, date: IsoDay): Record<string, unknown>[] {
  const path = (id: string) => contract.routes.byId(id).path;
  const body = (schema: string) => exampleOf(contract.schemas, schema);
  const fileState = { name: "an order with an attached file" };
  // What a checkout intent is created with, in both interactions that create one.
  const intentRequest = {
    contentType: "application/json",
    content: exampleOf(contract.schemas, "checkout-intent-request").value,
  };
  const out = [
    httpInteraction({
      description: "token: client_credentials grant",
      states: [
        {
          name: "an API client",
          params: { clientId: "assopay-pact-client", clientSecret: "assopay-pact-secret" },
        },
      ],
      method: "POST",
      path: path("token"),
      requestBody: {
        contentType: "application/x-www-form-urlencoded",
        content:
          "grant_type=client_credentials&client_id=assopay-pact-client&client_secret=assopay-pact-secret",
      },
      status: 200,
      responseBody: body("token"),
    }),
    httpInteraction({
      description: "public form: customFields and extraOptions before the first order",
      states: [{ name: "a form with custom fields and options and no order" }],
      method: "GET",
      path: path("v5.public-form"),
      role: "reader",
      status: 200,
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
    }),
    httpInteraction({
      description: "order detail: the URL of each attached file",
      states: [fileState],
      method: "GET",
      path: path("v5.order-detail"),
      role: "admin",
      status: 200,
      responseBody: body("order-detail"),
    }),
    httpInteraction({
      description: "attached file: downloads with an organization_admin token",
      states: [fileState],
      method: "GET",
      path: path("v5.attached-file"),
      role: "admin",
      status: 200,
    }),
    httpInteraction({
      description: "attached file: refused to a token without organization_admin",
      states: [fileState],
      method: "GET",
      path: path("v5.attached-file"),
      role: "reader",
      status: 403,
    }),
    httpInteraction({
      description: "attached file: refused without a token",
      states: [fileState],
      method: "GET",
      path: path("v5.attached-file"),
      status: 401,
    }),
    httpInteraction({
      description: "partner information: each notification URL with its signing key",
      states: [{ name: "a partner with a notification URL" }],
      method: "GET",
      path: path("v5.partner-info"),
      role: "reader",
      status: 200,
      responseBody: body("partner"),
    }),
    // Receiver URLs on loopback (port 9, discard, where nothing answers): a provider verified with these
    // files must not post signed notifications off its machine (docs/pact.md, "Notifications").
    httpInteraction({
      description: "notification URL registration: answers the URL and its signing key",
      states: [],
      method: "PUT",
      path: path("v5.notification-url"),
      role: "reader",
      requestBody: { contentType: "application/json", content: { url: "http://127.0.0.1:9/assopay/hook" } },
      status: 200,
      responseBody: body("notification-url"),
    }),
    httpInteraction({
      description: "notification URL registration for one organization: answers the URL and its signing key",
      states: [{ name: "a verified association" }],
      method: "PUT",
      path: path("v5.notification-url-org"),
      role: "reader",
      requestBody: {
        contentType: "application/json",
        content: { url: "http://127.0.0.1:9/assopay/org-hook" },
      },
      status: 200,
      responseBody: body("notification-url"),
    }),
    httpInteraction({
      description: "checkout intent: created for a verified association",
      states: [{ name: "a verified association" }],
      method: "POST",
      path: path("v5.checkout-create"),
      role: "reader",
      requestBody: intentRequest,
      status: 200,
      responseBody: body("checkout-intent-created"),
    }),
    httpInteraction({
      description: "checkout intent: read back",
      states: [{ name: "a checkout intent" }],
      method: "GET",
      path: path("v5.checkout-read"),
      role: "reader",
      status: 200,
      responseBody: body("checkout-intent"),
    }),
  ];
  if (contract.timeline.inForce("new-association-verification", date)) {
    out.push(
      httpInteraction({
        description: "checkout intent: refused for a newly registered association not yet verified",
        states: [{ name: "a newly registered association" }],
        method: "POST",
        path: path("v5.checkout-create"),
        role: "reader",
        requestBody: intentRequest,
        status: 400,
        statusClass: "clientError",
      }),
    );
  }
  return out;
}
