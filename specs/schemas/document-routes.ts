import { readRoutePage } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { parseJson } from "../runner/http.js";
import { noAdminReason } from "../runner/tokens.js";
import { combine, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { get, judge } from "./resources.js";

/** The read-only routes the document adds that a reader token may call. */
const READER_ROUTES = [
  "v5.organization",
  "v5.organization-forms",
  "v5.organization-form-types",
  "v5.user-organizations",
  "v5.partner-organizations",
] as const;

/** The item and payment ids of the first entry of the form's items listing, when it has any. */
async function firstItem(ctx: CheckContext): Promise<{ itemId?: number; paymentId?: number }> {
  const parsed = parseJson(await get(ctx, "v5.form-items", "reader"));
  const page = parsed.ok ? readRoutePage(parsed.value, ctx.contract.routes.byId("v5.form-items")) : undefined;
  const entry = (page?.ok ? page.entries[0] : undefined) as
    | { id?: number; payments?: { id?: number }[] }
    | undefined;
  return { itemId: entry?.id, paymentId: entry?.payments?.[0]?.id };
}

/**
 * The routes of the provider's document that real clients call validate against their schemas: the
 * organization, its forms and form types, the caller's and the partner's organizations, and, with the
 * organization_admin client, an item and a payment of the form's items listing. Refunds and
 * cancellations change the provider's data, so verify never calls them.
 */
export const documentRoutesCheck = specCheck({
  id: "schemas/document-routes",
  rule: "schema.responses",
  title: "Organization, forms, form types, organizations, item and payment responses validate",
  async run(ctx) {
    const findings: SubjectFinding[] = [];
    for (const routeId of READER_ROUTES)
      findings.push(judge(ctx, routeId, routeId, await get(ctx, routeId, "reader")));
    if (!ctx.tokens.has("admin")) {
      findings.push(skipOn("item and payment", noAdminReason(ctx.options.auth)));
      return combine(findings, "responses valid");
    }
    const { itemId, paymentId } = await firstItem(ctx);
    findings.push(
      itemId === undefined
        ? skipOn("v5.item", "the form's items listing has no entry")
        : judge(ctx, "v5.item", "v5.item", await get(ctx, "v5.item", "admin", { itemId })),
    );
    findings.push(
      paymentId === undefined
        ? skipOn("v5.payment", "the first entry names no payment")
        : judge(ctx, "v5.payment", "v5.payment", await get(ctx, "v5.payment", "admin", { paymentId })),
    );
    return combine(findings, "responses valid");
  },
});
