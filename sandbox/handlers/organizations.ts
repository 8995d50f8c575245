import { apiViews, type RouteHandler, type SandboxCore } from "../core.js";
import type { Organization } from "../data/model.js";
import {
  organizationLightView,
  organizationView,
  partnerOrganizationView,
} from "../data/organization-view.js";
import { formLightView } from "../data/public-form.js";
import { type Exchange, sendErrors, sendJson } from "../http.js";
import { sendShortListing } from "./short-listing.js";

function known(core: SandboxCore, ex: Exchange, slug: string | undefined): Organization | undefined {
  const organization = core.store.organization(slug ?? "");
  if (!organization) sendErrors(ex, 404, "NotFound", `No organization with slug "${slug}".`);
  return organization;
}

/** `GET /v5/organizations/{organizationSlug}`. */
export const organizationHandler: RouteHandler = (core, ex, call) => {
  const organization = known(core, ex, call.params.organizationSlug);
  if (organization) sendJson(ex, 200, organizationView(apiViews(core), organization));
};

/** `GET /v5/organizations/{organizationSlug}/forms`: the organization's forms (FormLightModel). */
export const organizationFormsHandler: RouteHandler = (core, ex, call) => {
  const organization = known(core, ex, call.params.organizationSlug);
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
};

/** `GET /v5/organizations/{organizationSlug}/formTypes`: the types of the organization's forms. */
export const formTypesHandler: RouteHandler = (core, ex, call) => {
  const organization = known(core, ex, call.params.organizationSlug);
  if (!organization) return;
  sendJson(ex, 200, [...new Set(core.store.forms(organization.slug).map((f) => f.formType))]);
};

/**
 * `GET /v5/users/me/organizations`: every organization of the sandbox, as a bare array of the document's
 * OrganizationLightModel (`updateDate` included).
 */
export const userOrganizationsHandler: RouteHandler = (core, ex) => {
  const views = apiViews(core);
  sendJson(
    ex,
    200,
    core.store.organizations().map((o) => organizationLightView(views, o)),
  );
};

/** `GET /v5/partners/me/organizations`: the organizations linked to the partner, one page. */
export const partnerOrganizationsHandler: RouteHandler = (core, ex, call) => {
  const views = apiViews(core);
  const organizations = core.store
    .organizations()
    .map((o) => ({ organization: partnerOrganizationView(views, o), availableAccessToken: true }));
  sendShortListing(core, ex, call, [], organizations);
};
