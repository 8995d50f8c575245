import { apiViews, type RouteHandler, type SandboxCore } from "../core.js";
import type { Organization } from "../data/model.js";
import { formUrl, organizationView } from "../data/views.js";
import { type Exchange, sendErrors, sendJson, sendValidation } from "../http.js";
import { formatServiceDate } from "../service-dates.js";

function known(core: SandboxCore, ex: Exchange, slug: string | undefined): Organization | undefined {
  const organization = core.store.organization(slug ?? "");
  if (!organization) sendErrors(ex, 404, "NotFound", `No organization with slug "${slug}".`);
  return organization;
}

/**
 * One page of a short list, paginated like the other listings: `pageSize` (1–100), a continuation token
 * (the offset, opaque to clients) and an empty final page that carries the token it was sent.
 */
function page(ex: Exchange, all: readonly unknown[]): void {
  const sizeText = ex.query.get("pageSize");
  const pageSize = sizeText === null ? 20 : Number(sizeText);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    sendValidation(ex, { pageSize: [`The field pageSize must be between 1 and 100, got '${sizeText}'.`] });
    return;
  }
  const sent = ex.query.get("continuationToken");
  const start = sent === null ? 0 : Number(Buffer.from(sent, "base64").toString("utf8").split(":")[1]);
  if (!Number.isInteger(start) || start < 0) {
    sendValidation(ex, { continuationToken: ["The continuation token is not valid."] });
    return;
  }
  const data = all.slice(start, start + pageSize);
  const next = start + data.length;
  const token = data.length === 0 && sent !== null ? sent : Buffer.from(`offset:${next}`).toString("base64");
  sendJson(ex, 200, {
    data,
    pagination: {
      pageSize,
      totalCount: all.length,
      pageIndex: Math.floor(start / pageSize) + 1,
      totalPages: Math.ceil(all.length / pageSize),
      continuationToken: token,
    },
  });
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
    .map((form) => {
      const created = formatServiceDate({ ms: form.createdMs, ticks: 4470 }, views.dateStyle);
      return {
        currency: "EUR",
        meta: { createdAt: created, updatedAt: created },
        state: "Public",
        title: form.title,
        privateTitle: form.title,
        formSlug: form.formSlug,
        formType: form.formType,
        url: formUrl(views, form),
        organizationSlug: organization.slug,
      };
    });
  page(ex, forms);
};

/** `GET /v5/organizations/{organizationSlug}/formTypes`: the types of the organization's forms. */
export const formTypesHandler: RouteHandler = (core, ex, call) => {
  const organization = known(core, ex, call.params.organizationSlug);
  if (!organization) return;
  sendJson(ex, 200, [...new Set(core.store.forms(organization.slug).map((f) => f.formType))]);
};

/** `GET /v5/users/me/organizations`: every organization of the sandbox, as a bare array. */
export const userOrganizationsHandler: RouteHandler = (core, ex) => {
  const views = apiViews(core);
  sendJson(
    ex,
    200,
    core.store.organizations().map((o) => ({ ...organizationView(views, o), role: "OrganizationAdmin" })),
  );
};

/** `GET /v5/partners/me/organizations`: the organizations linked to the partner, one page. */
export const partnerOrganizationsHandler: RouteHandler = (core, ex) => {
  const views = apiViews(core);
  page(
    ex,
    core.store
      .organizations()
      .map((o) => ({ organization: organizationView(views, o), availableAccessToken: true })),
  );
};
