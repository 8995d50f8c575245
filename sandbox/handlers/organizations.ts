import { apiViews, organizationOf, type RouteHandler } from "../core.js";
import {
  formLightView,
  organizationLightView,
  organizationView,
  partnerOrganizationView,
  publicFormView,
} from "../data/views.js";
import { orNotFound, sendJson } from "../http.js";
import { sendShortListing } from "../listing.js";

/** The routes of organizations and their forms. */
export const organizationHandlers: Readonly<Record<string, RouteHandler>> = {
  /** `GET /v5/organizations/{organizationSlug}`. */
  "v5.organization": (core, ex, call) => {
    const organization = organizationOf(core, ex, call.params.organizationSlug);
    if (organization) sendJson(ex, 200, organizationView(apiViews(core), organization));
  },

  /** `GET /v5/organizations/{organizationSlug}/forms`: the organization's forms (FormLightModel). */
  "v5.organization-forms": (core, ex, call) => {
    const organization = organizationOf(core, ex, call.params.organizationSlug);
    if (!organization) return;
    const views = apiViews(core);
    const types = ex.query.getAll("formTypes").map((t) => t.toLowerCase());
    const forms = core.store
      .forms(organization.slug)
      .filter((f) => types.length === 0 || types.includes(f.formType.toLowerCase()))
      .map((form) => formLightView(views, form));
    const states = ex.query.getAll("states").map((t) => t.toLowerCase());
    const listed = forms.filter((f) => states.length === 0 || states.includes(String(f.state).toLowerCase()));
    sendShortListing(core, ex, call, [organization.slug, types.join(","), states.join(",")], listed);
  },

  /** `GET /v5/organizations/{organizationSlug}/formTypes`: the types of the organization's forms. */
  "v5.organization-form-types": (core, ex, call) => {
    const organization = organizationOf(core, ex, call.params.organizationSlug);
    if (organization)
      sendJson(ex, 200, [...new Set(core.store.forms(organization.slug).map((f) => f.formType))]);
  },

  /** `GET …/forms/{formType}/{formSlug}/public`: customFields and extraOptions, with or without orders. */
  "v5.public-form": (core, ex, call) => {
    const { organizationSlug = "", formType = "", formSlug = "" } = call.params;
    const organization = core.store.organization(organizationSlug);
    const form = orNotFound(
      ex,
      organization && core.store.form(organization.slug, formType, formSlug),
      `No form ${formType}/${formSlug} in organization "${organizationSlug}".`,
    );
    if (!organization || !form) return;
    const withFields = core.fault !== "no-custom-fields";
    sendJson(ex, 200, publicFormView(apiViews(core), form, organization, withFields));
  },

  /**
   * `GET /v5/users/me/organizations`: every organization of the sandbox, as a bare array of the document's
   * OrganizationLightModel (`updateDate` included).
   */
  "v5.user-organizations": (core, ex) => {
    const views = apiViews(core);
    sendJson(
      ex,
      200,
      core.store.organizations().map((o) => organizationLightView(views, o)),
    );
  },

  /** `GET /v5/partners/me/organizations`: the organizations linked to the partner, one page. */
  "v5.partner-organizations": (core, ex, call) => {
    const views = apiViews(core);
    const organizations = core.store
      .organizations()
      .map((o) => ({ organization: partnerOrganizationView(views, o), availableAccessToken: true }));
    sendShortListing(core, ex, call, [], organizations);
  },
};
