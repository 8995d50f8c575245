import { orderOfCrawl, type Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { endedLegally } from "../runner/crawler.js";
import type { SpecCheck, SubjectFinding } from "../runner/verdicts.js";
import { holdingFinding, judgeFormPairs, judgeHolding, logsOfPair } from "./holding.js";

/** The label of the crawl of an organization's listing made after its form's, to confirm an omission. */
const AFTER = "after the form's crawls";

/** How many of the organization's other forms are judged too: the first its forms listing names. */
const OTHER_FORMS = 3;

interface Form {
  readonly formType: string;
  readonly formSlug: string;
}

/**
 * The organization's forms other than the coordinates' one, as its forms listing names them
 * (`Type/slug`, routes.yaml's `entryKey`), the first `most` of its default crawl.
 */
export async function otherForms(ctx: CheckContext, most = OTHER_FORMS): Promise<Form[]> {
  const crawl = await ctx.crawl(ctx.contract.routes.byId("v5.organization-forms"), "default");
  if (!endedLegally(crawl.stop)) return [];
  const { formType, formSlug } = await ctx.coordinates();
  const own = `${formType}/${formSlug}`.toLowerCase();
  return orderOfCrawl(crawl.log)
    .filter((id): id is string => typeof id === "string" && id.toLowerCase() !== own)
    .slice(0, most)
    .map((id) => {
      const [type = "", ...slug] = id.split("/");
      return { formType: type, formSlug: slug.join("/") };
    });
}

/**
 * One form listing against its organization's, over the crawls the completeness checks made of both;
 * then the same listing of other forms of the organization, each crawled once at the largest page size.
 */
async function judgePair(ctx: CheckContext, form: Route, organization: Route): Promise<SubjectFinding> {
  const logs = await logsOfPair(ctx, form, organization, organization.id);
  if ("verdict" in logs) return logs;
  const judged = await judgeHolding(ctx, logs.form, organization, logs.organization, AFTER);
  const own = holdingFinding(
    { source: form, holder: organization, entries: `entries of ${form.id}` },
    judged,
  );
  if (own.verdict !== "pass") return own;
  let entries = 0;
  let forms = 0;
  for (const other of await otherForms(ctx)) {
    const crawl = await ctx.crawlOfForm(form, other);
    // A listing the provider does not serve for that form (a checkout's, say) vouches for nothing.
    if (!endedLegally(crawl.stop)) continue;
    const name = `${other.formType}/${other.formSlug}`;
    const held = await judgeHolding(ctx, [crawl.log], organization, logs.organization, `${AFTER} (${name})`);
    if (held.omission) {
      const what = `entries of ${form.id} for ${name}`;
      return holdingFinding({ source: form, holder: organization, entries: what }, held);
    }
    entries += held.formEntries;
    forms++;
  }
  if (forms === 0) return own;
  const others = `${entries} ${entries === 1 ? "entry" : "entries"} of ${forms} other form${forms === 1 ? "" : "s"}`;
  return { ...own, reason: `${own.reason ?? organization.id}, and the ${others}` };
}

/**
 * Pagination rule 6 over two listings: an organization's listing of items, orders or payments holds
 * everything its forms' listings of the same kind hold (the provider's document: the organization's
 * listing is what all its forms sold). Judged on the crawls the completeness checks made, at every page
 * size, so a provider that leaves some entries out of the organization's listing at every page size,
 * with totals to match, is caught; an entry the organization's crawls lack is an omission only when a
 * crawl of it that started after the form's ended lacks it too. The organization's other forms (the
 * first `OTHER_FORMS` its forms listing names) are judged too, so a provider whose organization's
 * listing holds one form's entries only is caught where the organization sells through several.
 */
export const organizationHoldsFormsCheck: SpecCheck = {
  id: "pagination/organization-holds-forms",
  group: "pagination",
  rule: "pagination.organization-holds-forms",
  title: "An organization's listing holds every entry of its forms' listings",
  run: (ctx) => judgeFormPairs(ctx, judgePair, "organization listings that hold their form's entries"),
};
