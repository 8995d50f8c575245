import { judgeContainment, logsNaming, type Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { completenessOf, legalLogs } from "./completeness.js";
import { holdingFinding, organizationOf } from "./organization-holds-forms.js";

/** The label of the crawl of a form's listing made after its organization's, to confirm an omission. */
const AFTER = "after the organization's crawls";

/** One form listing against the entries its organization's listing names as that form's. */
async function judgePair(ctx: CheckContext, form: Route, organization: Route): Promise<Finding> {
  const [ofForm, ofOrganization] = [await completenessOf(ctx, form), await completenessOf(ctx, organization)];
  if (ofForm.kind === "skip")
    return { kind: "skip", subject: form.id, reason: `${form.id}: ${ofForm.reason}` };
  if (ofOrganization.kind === "skip") {
    return { kind: "skip", subject: form.id, reason: `${organization.id}: ${ofOrganization.reason}` };
  }
  const { formType, formSlug } = await ctx.coordinates();
  const named = logsNaming(ofOrganization.logs, `${formType}/${formSlug}`);
  if (named.every((log) => log.pages.every((page) => page.ids.length === 0))) {
    return {
      kind: "skip",
      subject: form.id,
      reason: `no entry of ${organization.id} names its form (formType and formSlug, on the entry or its order)`,
    };
  }
  let judged = judgeContainment(named, ofForm.logs);
  if (judged.unconfirmed.length > 0) {
    const after = await ctx.crawlSized(form, form.pagination?.maxPageSize ?? 100, AFTER);
    judged = judgeContainment(named, [...ofForm.logs, ...legalLogs([after])]);
  }
  const entries = `entries ${organization.id} names as ${formType}/${formSlug}'s`;
  return holdingFinding({ source: organization, holder: form, entries }, judged);
}

/**
 * Pagination rule 6 over two listings, the other way round: a form's listing of items, orders or payments
 * holds every entry its organization's listing of the same kind names as that form's (`formType` and
 * `formSlug`, on an order or on the `order` of an item or a payment). Judged on the completeness checks'
 * crawls of both, at every page size and oldest first, so a provider whose form listings leave entries
 * out, their totals to match, while the organization's still has them, is caught. An entry the form's
 * crawls lack is an omission only when a crawl of the form that started after the organization's crawl
 * that served it ended lacks it too; otherwise the form is crawled once more at the largest size.
 */
export const formHoldsItsEntriesCheck: SpecCheck = {
  id: "pagination/form-holds-its-entries",
  group: "pagination",
  rule: "pagination.form-holds-its-entries",
  title: "A form's listing holds every entry its organization's listing names as the form's",
  async run(ctx) {
    const served = ctx.servedListings();
    const findings: Finding[] = [];
    for (const form of served) {
      const organization = organizationOf(form, served);
      if (organization) findings.push(await judgePair(ctx, form, organization));
    }
    return combine(findings, "form listings that hold what their organization names as theirs");
  },
};
