import { AssopayError } from "../core/errors.js";
import { DYNAMIC_ID_BASE, FORM_ID_SPAN } from "./data/generate.js";
import type { DeclaredOrder, FormDef, Organization, SandboxData } from "./data/model.js";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The data a store starts from (and returns to on reset). */
export interface BaseData {
  organizations: ReadonlyMap<string, Organization>;
  seeded: FormDef[];
  mainForm: FormDef;
  declaredOrders: ReadonlyMap<number, { form: FormDef; order: DeclaredOrder }>;
  declaredPayments: ReadonlyMap<number, number>;
  declaredItems: ReadonlyMap<number, number>;
}

/**
 * The ready-made organization and forms, with the declared ones beside them (or in their place, for the
 * same slug), and indexes of the declared orders by order, payment and item id.
 */
export function baseData(
  ready: readonly FormDef[],
  readyOrganization: Organization,
  data?: SandboxData,
): BaseData {
  const organizations = new Map([[readyOrganization.slug.toLowerCase(), readyOrganization]]);
  for (const organization of data?.organizations ?? [])
    organizations.set(organization.slug.toLowerCase(), organization);
  const seeded = [...ready];
  for (const declared of data?.forms ?? []) {
    const at = seeded.findIndex(
      (f) =>
        same(f.organizationSlug, declared.organizationSlug) &&
        same(f.formType, declared.formType) &&
        same(f.formSlug, declared.formSlug),
    );
    const key = at >= 0 ? at : seeded.length;
    const form: FormDef = { ...declared, key, firstId: (key + 1) * FORM_ID_SPAN };
    if (at >= 0) seeded[at] = form;
    else seeded.push(form);
  }
  const declaredOrders = new Map<number, { form: FormDef; order: DeclaredOrder }>();
  const declaredPayments = new Map<number, number>();
  const declaredItems = new Map<number, number>();
  for (const form of seeded) {
    for (const order of form.declared ?? []) {
      const clash = seeded.find(
        (f) => !f.declared && order.id >= f.firstId && order.id < f.firstId + f.count,
      );
      if (clash || order.id >= DYNAMIC_ID_BASE || declaredOrders.has(order.id)) {
        throw new AssopayError(
          "bad-input",
          `order ${order.id} of form ${form.formType}/${form.formSlug} takes an id the sandbox already uses${clash ? ` (the generated entries of ${clash.formType}/${clash.formSlug})` : ""}`,
          { hint: `give it another id, below ${DYNAMIC_ID_BASE}` },
        );
      }
      declaredOrders.set(order.id, { form, order });
      for (const payment of order.payments) declaredPayments.set(payment.id, order.id);
      declaredItems.set(order.itemId, order.id);
      if (order.donation) declaredItems.set(order.donation.itemId, order.id);
    }
  }
  const wanted = data?.main;
  const mainForm =
    (wanted &&
      seeded.find(
        (f) =>
          same(f.organizationSlug, wanted.organizationSlug) &&
          same(f.formType, wanted.formType) &&
          same(f.formSlug, wanted.formSlug),
      )) ??
    (seeded[0] as FormDef);
  return { organizations, seeded, mainForm, declaredOrders, declaredPayments, declaredItems };
}
