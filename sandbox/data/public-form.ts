import { formatServiceDate } from "../service-dates.js";
import { DONATION_MIN } from "./generate.js";
import type { CustomFieldDef, ExtraOptionDef, FormDef, Organization } from "./model.js";
import { DONATION_NAME, formUrl, type ViewContext } from "./views.js";

type Json = Record<string, unknown>;

function customFieldView(field: CustomFieldDef): Json {
  return {
    id: field.id,
    ...(field.values ? { values: [...field.values] } : {}),
    isRequired: field.isRequired,
    type: field.type,
    label: field.label,
  };
}

function extraOptionView(option: ExtraOptionDef): Json {
  return {
    customFields: option.customFields.map(customFieldView),
    id: option.id,
    price: option.price,
    vatRate: 0,
    label: option.label,
    description: option.description,
    isRequired: option.isRequired,
  };
}

/**
 * The public form: `customFields` and `extraOptions` on the form (as the seed puts them) and on its tier
 * (as the provider's document does). `withFields` is false under the `no-custom-fields` fault.
 */
export function publicFormView(
  ctx: ViewContext,
  form: FormDef,
  organization: Organization,
  withFields: boolean,
): Json {
  const customFields = withFields ? form.customFields.map(customFieldView) : [];
  const extraOptions = withFields ? form.extraOptions.map(extraOptionView) : [];
  const created = formatServiceDate({ ms: form.createdMs, ticks: 4470 }, ctx.dateStyle);
  const url = formUrl(ctx, form);
  return {
    organizationName: organization.name,
    tiers: [
      {
        customFields,
        extraOptions,
        id: form.tierId,
        label: form.tierName,
        tierType: form.itemType,
        price: form.priceMin,
        vatRate: 0,
        paymentFrequency: "Single",
        isEligibleTaxReceipt: form.itemType === "Donation",
      },
      ...(form.donationTierId === undefined
        ? []
        : [
            {
              customFields: [],
              extraOptions: [],
              id: form.donationTierId,
              label: DONATION_NAME,
              tierType: "Donation",
              price: 0,
              minAmount: DONATION_MIN,
              vatRate: 0,
              paymentFrequency: "Single",
              isEligibleTaxReceipt: true,
            },
          ]),
    ],
    customFields,
    extraOptions,
    currency: "EUR",
    description: `${form.title} : inscriptions en ligne.`,
    meta: { createdAt: created, updatedAt: created },
    state: "Public",
    title: form.title,
    privateTitle: form.title,
    widgetButtonUrl: `${url}/widget-bouton`,
    widgetFullUrl: `${url}/widget`,
    formSlug: form.formSlug,
    formType: form.formType,
    url,
    organizationSlug: organization.slug,
  };
}
