import { foreignEntries, logsNaming, type Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import type { SpecCheck, SubjectFinding } from "../runner/verdicts.js";
import { holdingFinding, judgeFormPairs, judgeHolding, logsOfPair } from "./holding.js";
import { foreignFinding } from "./listing-findings.js";

/** The label of the crawl of a form's listing made after its organization's, to confirm an omission. */
const AFTER = "after the organization's crawls";

/** One form listing against the entries its organization's listing names as that form's. */
async function judgePair(ctx: CheckContext, form: Route, organization: Route): Promise<SubjectFinding> {
  const logs = await logsOfPair(ctx, form, organization, form.id);
  if ("verdict" in logs) return logs;
  const { formType, formSlug } = await ctx.coordinates();
  const foreign = foreignEntries(logs.form, "form", `${formType}/${formSlug}`);
  if (foreign) {
    const why = "which its organization's listing files under that form";
    return foreignFinding(form, "form", `${formType}/${formSlug}`, foreign, why);
  }
  const named = logsNaming(logs.organization, `${formType}/${formSlug}`);
  if (named.every((log) => log.pages.every((page) => page.ids.length === 0))) {
    return {
      verdict: "skip",
      subject: form.id,
      reason: `no entry of ${organization.id} names its form (formType and formSlug, on the entry or its order)`,
    };
  }
  const judged = await judgeHolding(ctx, named, form, logs.form, AFTER);
  const entries = `entries ${organization.id} names as ${formType}/${formSlug}'s`;
  return holdingFinding({ source: organization, holder: form, entries }, judged);
}

/**
 * Pagination rule 6 over two listings, the other way round: a form's listing of items, orders or payments
 * holds every entry its organization's listing of the same kind names as that form's (`formType` and
 * `formSlug`, on an order or on the `order` of an item or a payment), and none that names another form.
 * Judged on the completeness checks' crawls of both, at every page size and oldest first, so a provider
 * whose form listings leave entries out, their totals to match, while the organization's still has them,
 * is caught, and so is one that serves a form the organization's entries. An entry the form's
 * crawls lack is an omission only when a crawl of the form that started after the organization's crawl
 * that served it ended lacks it too; otherwise the form is crawled once more at the largest size.
 */
export const formHoldsItsEntriesCheck: SpecCheck = {
  id: "pagination/form-holds-its-entries",
  group: "pagination",
  rule: "pagination.form-holds-its-entries",
  title:
    "A form's listing holds every entry its organization's listing names as the form's, and no other form's",
  run: (ctx) =>
    judgeFormPairs(
      ctx,
      judgePair,
      "form listings that hold what their organization names as theirs, and no other",
    ),
};
