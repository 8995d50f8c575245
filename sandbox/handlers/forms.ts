import { apiViews, type RouteHandler } from "../core.js";
import { publicFormView } from "../data/public-form.js";
import { sendErrors, sendJson } from "../http.js";

/** `GET …/forms/{formType}/{formSlug}/public`: customFields and extraOptions, with or without orders. */
export const publicFormHandler: RouteHandler = (core, ex, call) => {
  const { organizationSlug = "", formType = "", formSlug = "" } = call.params;
  const organization = core.store.organization(organizationSlug);
  const form = organization && core.store.form(organization.slug, formType, formSlug);
  if (!organization || !form) {
    sendErrors(ex, 404, "NotFound", `No form ${formType}/${formSlug} in organization "${organizationSlug}".`);
    return;
  }
  sendJson(ex, 200, publicFormView(apiViews(core), form, organization, core.fault !== "no-custom-fields"));
};
