import { formatServiceDate } from "../service-dates.js";
import type { Organization } from "./model.js";
import type { ViewContext } from "./views.js";

type Json = Record<string, unknown>;

/** When an organization last changed: its declared `updateDate`, else noon (UTC) of the day it registered. */
function updateDate(ctx: ViewContext, organization: Organization): string {
  const ms = organization.updatedMs ?? Date.parse(`${organization.registeredOn}T12:00:00Z`);
  return formatServiceDate({ ms, ticks: 3120 }, ctx.dateStyle);
}

/**
 * An organization as the document's OrganizationLightModel gives it (each entry of
 * `GET /v5/users/me/organizations`): every field the document lists, `null` where the sandbox knows none.
 */
export function organizationLightView(ctx: ViewContext, organization: Organization): Json {
  return {
    logo: organization.logo ?? null,
    name: organization.name,
    role: "OrganizationAdmin",
    city: organization.city ?? "Bordeaux",
    zipCode: organization.zipCode ?? "33000",
    description: organization.description ?? null,
    updateDate: updateDate(ctx, organization),
    categoryJoId: null,
    url: `${ctx.baseUrl}/associations/${organization.slug}`,
    organizationSlug: organization.slug,
  };
}

/**
 * An organization as the document's OrganizationPublicModel gives it (`GET /v5/organizations/{slug}`,
 * the Organization notification): the light model's fields and the public ones, plus `slug`, which the
 * notifications of the service carry.
 */
export function organizationView(ctx: ViewContext, organization: Organization): Json {
  return {
    ...organizationLightView(ctx, organization),
    slug: organization.slug,
    facebookPage: null,
    galleryImages: [],
    longDescription: organization.description ?? null,
    twitterPage: null,
    videos: [],
    webSite: null,
    isAuthenticated: organization.verified,
    isCashInCompliant: organization.verified,
    banner: null,
    fiscalReceiptEligibility: organization.verified,
    fiscalReceiptIssuanceEnabled: organization.verified,
    type: organization.type,
    category: null,
    address: null,
    geolocation: { latitude: 44.8378, longitude: -0.5792 },
    rnaNumber: null,
  };
}

/** An organization linked to the partner (the document's DirectoryOrganizationPublicModel). */
export function partnerOrganizationView(ctx: ViewContext, organization: Organization): Json {
  return { ...organizationView(ctx, organization), tags: [], linkedPartners: [] };
}
