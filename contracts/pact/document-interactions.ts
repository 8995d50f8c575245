import type { Contract } from "../types.js";
import { exampleOf } from "./examples.js";
import { httpInteraction } from "./interaction.js";

/**
 * Interactions of the routes the provider's published document adds to the seed's (organizations,
 * forms, items, payments, refunds, cancellations, users, partners, notification URL removal).
 */
export function documentInteractions(contract: Contract): Record<string, unknown>[] {
  const path = (id: string) => contract.routes.byId(id).path;
  const body = (schema: string) => exampleOf(contract.schemas, schema);
  const verified = { name: "a verified association" };
  const paid = { name: "an order is paid" };
  const get = (id: string, description: string, state: { name: string } | undefined, schema: string) =>
    httpInteraction({
      description,
      states: state ? [state] : [],
      method: "GET",
      path: path(id),
      role: contract.routes.byId(id).auth === "organization_admin" ? "admin" : "reader",
      status: 200,
      responseBody: body(schema),
    });
  return [
    get("v5.organization", "organization: its public description", verified, "organization"),
    get("v5.organization-forms", "organization forms: one page of forms", verified, "form-page"),
    get("v5.organization-form-types", "organization form types: the types it uses", verified, "form-types"),
    get(
      "v5.user-organizations",
      "user organizations: the organizations of the caller",
      undefined,
      "organization-list",
    ),
    get("v5.partner-organizations", "partner organizations: one page", undefined, "organization-page"),
    get("v5.item", "item detail: the item with its order and payments", paid, "item-detail"),
    get("v5.payment", "payment detail: how a webhook confirms a notified payment", paid, "payment"),
    httpInteraction({
      description: "payment refund: answers the refund operation",
      states: [paid],
      method: "POST",
      path: path("v5.payment-refund"),
      role: "admin",
      status: 200,
      responseBody: body("refund-operation"),
    }),
    httpInteraction({
      description: "order cancellation: answers success",
      states: [paid],
      method: "POST",
      path: path("v5.order-cancel"),
      role: "admin",
      status: 200,
    }),
    httpInteraction({
      description: "notification URL removal (partner-wide)",
      states: [{ name: "a partner with a notification URL" }],
      method: "DELETE",
      path: path("v5.notification-url-delete"),
      role: "reader",
      status: 200,
    }),
    httpInteraction({
      description: "notification URL removal for one organization",
      states: [verified],
      method: "DELETE",
      path: path("v5.notification-url-org-delete"),
      role: "reader",
      status: 200,
    }),
  ];
}
