import type { Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import type { Finding, SpecCheck } from "../runner/verdicts.js";
import { holdingFinding, judgeFormPairs, judgeHolding, logsOfPair } from "./holding.js";

/** The label of the crawl of an organization's listing made after its form's, to confirm an omission. */
const AFTER = "after the form's crawls";

/** One form listing against its organization's, over the crawls the completeness checks made of both. */
async function judgePair(ctx: CheckContext, form: Route, organization: Route): Promise<Finding> {
  const logs = await logsOfPair(ctx, form, organization, organization.id);
  if (logs.kind !== "logs") return logs;
  const judged = await judgeHolding(ctx, logs.form, organization, logs.organization, AFTER);
  return holdingFinding({ source: form, holder: organization, entries: `entries of ${form.id}` }, judged);
}

/**
 * Pagination rule 6 over two listings: an organization's listing of items, orders or payments holds
 * everything its forms' listings of the same kind hold (the provider's document: the organization's
 * listing is what all its forms sold). Judged on the crawls the completeness checks made, at every page
 * size, so a provider that leaves some entries out of the organization's listing at every page size,
 * with totals to match, is caught; an entry the organization's crawls lack is an omission only when a
 * crawl of it that started after the form's ended lacks it too.
 */
export const organizationHoldsFormsCheck: SpecCheck = {
  id: "pagination/organization-holds-forms",
  group: "pagination",
  rule: "pagination.organization-holds-forms",
  title: "An organization's listing holds every entry of its forms' listings",
  run: (ctx) => judgeFormPairs(ctx, judgePair, "organization listings that hold their form's entries"),
};
