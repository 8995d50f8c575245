import { foreignEntries, type Route } from "../../contracts/index.js";
import { completenessOf } from "../pagination/completeness.js";
import { foreignFinding } from "../pagination/listing-findings.js";
import type { CheckContext } from "../runner/context.js";
import { legalLogs } from "../runner/crawler.js";
import { combine, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";

/** One listing of an organization, over every crawl the completeness checks made of it. */
async function judgeListing(ctx: CheckContext, route: Route): Promise<SubjectFinding> {
  const outcome = await completenessOf(ctx, route);
  const logs = (outcome.kind === "judged" ? outcome.logs : legalLogs(outcome.made)).filter(
    (l) => !l.unlogged,
  );
  if (logs.length === 0) return skipOn(route.id, outcome.kind === "skip" ? outcome.reason : "no crawl");
  const { organizationSlug } = await ctx.coordinates();
  const foreign = foreignEntries(logs, "organization", organizationSlug);
  if (foreign) {
    const why = "which a reader of this organization must never see";
    return foreignFinding(route, "organization", organizationSlug, foreign, why);
  }
  return passOn(route.id);
}

/**
 * An organization's listings (its forms, and the items, orders and payments of the organization and of
 * its forms) serve only entries of that organization: every entry that names one (`organizationSlug`, on
 * the entry or its `order`) names the organization asked for. Judged on the crawls the completeness checks
 * made of each listing, at every page size, so no request is added. A provider that ignores the slug in
 * the path, and serves every organization's entries, shows them to a reader of another.
 */
export const ownOrganizationEntriesCheck = specCheck({
  id: "rights/own-organization-entries",
  rule: "rights.own-organization-entries",
  title: "An organization's listings serve only that organization's entries",
  run: async (ctx) => {
    const findings: SubjectFinding[] = [];
    for (const route of ctx.servedListings().filter((r) => r.pathParams.includes("organizationSlug"))) {
      findings.push(await judgeListing(ctx, route));
    }
    return combine(findings, "listings serving only their organization's entries");
  },
});
