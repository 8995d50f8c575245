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
  const light = formLightView(ctx, form);
  return {
    organizationLogo: organization.logo ?? null,
    organizationName: organization.name,
    tiers: [
      ...form.tiers.map((tier, n) => ({
        customFields: n === 0 ? customFields : [],
        extraOptions: n === 0 ? extraOptions : [],
        id: tier.id,
        label: tier.label,
        description: tier.description ?? null,
        tierType: tier.tierType,
        price: tier.priceCategory === "Fixed" ? tier.priceMin : 0,
        ...(tier.priceCategory === "Fixed" ? {} : { minAmount: tier.priceMin }),
        vatRate: 0,
        paymentFrequency: "Single",
        isEligibleTaxReceipt: tier.tierType === "Donation",
      })),
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
    activityType: form.formType === "Event" ? "Fête / Soirée" : null,
    activityTypeId: form.formType === "Event" ? 6 : 0,
    place: {
      address: null,
      name: null,
      city: organization.city ?? "Bordeaux",
      zipCode: organization.zipCode ?? "33000",
      country: "FRA",
    },
    saleEndDate: null,
    saleStartDate: null,
    validityType: form.formType === "Membership" ? "MovingYear" : "Illimited",
    personalizedMessage: null,
    customFields,
    extraOptions,
    ...light,
  };
}

/**
 * A form as the document's FormLightModel gives it (each entry of `GET …/forms`, and the base of the
 * public form): every field the document lists, `null` where the sandbox knows none.
 */
export function formLightView(ctx: ViewContext, form: FormDef): Json {
  const created = formatServiceDate({ ms: form.createdMs, ticks: 4470 }, ctx.dateStyle);
  const url = formUrl(ctx, form);
  return {
    banner: { id: null, fileName: `${form.formSlug}-banniere.jpg`, publicUrl: `${url}/banniere.jpg` },
    currency: "EUR",
    description: `${form.title} : inscriptions en ligne.`,
    startDate: null,
    endDate: null,
    logo: { id: null, fileName: `${form.formSlug}-logo.png`, publicUrl: `${url}/logo.png` },
    meta: { createdAt: created, updatedAt: created },
    state: "Public",
    title: form.title,
    privateTitle: form.title,
    widgetButtonUrl: `${url}/widget-bouton`,
    widgetFullUrl: `${url}/widget`,
    widgetVignetteHorizontalUrl: `${url}/widget-vignette-horizontale`,
    widgetVignetteVerticalUrl: `${url}/widget-vignette`,
    widgetCounterUrl: `${url}/widget-compteur`,
    formSlug: form.formSlug,
    formType: form.formType,
    url,
    organizationSlug: form.organizationSlug,
  };
}
