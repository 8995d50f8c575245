import {
  type Containment,
  type CrawlLog,
  foreignEntries,
  idsOfCrawl,
  judgeContainment,
  logsNaming,
  type Route,
} from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { endedLegally, legalLogs } from "../runner/crawler.js";
import type { Evidence } from "../runner/types.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, pageExchange } from "./completeness.js";
import { otherForms } from "./crawl-plan.js";
import { foreignFinding, idList } from "./listing-findings.js";

/** The organization's listing of the same kind and version as a form's listing; undefined if none is served. */
export function organizationOf(form: Route, served: readonly Route[]): Route | undefined {
  const path = form.path.replace("/forms/{formType}/{formSlug}", "");
  return path === form.path ? undefined : served.find((r) => r.path === path && r.method === form.method);
}

/**
 * Runs `judge` on every served form listing whose organization's listing is served too, and combines
 * the findings under `what`.
 */
async function judgeFormPairs(
  ctx: CheckContext,
  judge: (ctx: CheckContext, form: Route, organization: Route) => Promise<SubjectFinding>,
  what: string,
) {
  const served = ctx.servedListings();
  const findings: SubjectFinding[] = [];
  for (const form of served) {
    const organization = organizationOf(form, served);
    if (organization) findings.push(await judge(ctx, form, organization));
  }
  return combine(findings, what);
}

/**
 * The completeness checks' crawls of a form's listing and of its organization's (the form's first), or
 * a skip on `subject` naming the listing that has none and why.
 */
async function logsOfPair(ctx: CheckContext, form: Route, organization: Route, subject: string) {
  const [ofForm, ofOrganization] = [await completenessOf(ctx, form), await completenessOf(ctx, organization)];
  if (ofForm.kind === "skip") return skipOn(subject, `${form.id}: ${ofForm.reason}`);
  if (ofOrganization.kind === "skip") {
    return skipOn(subject, `${organization.id}: ${ofOrganization.reason}`);
  }
  return { form: ofForm.logs, organization: ofOrganization.logs };
}

/**
 * `source`'s entries judged against `holder`'s crawls; when an omission is unconfirmed, `holder` is
 * crawled once more at its largest page size (labelled `after`) and judged again with that crawl too.
 */
async function judgeHolding(
  ctx: CheckContext,
  source: readonly CrawlLog[],
  holder: Route,
  held: readonly CrawlLog[],
  after: string,
): Promise<Containment> {
  const judged = judgeContainment(source, held);
  if (judged.unconfirmed.length === 0) return judged;
  const again = await ctx.crawlSized(holder, holder.pagination?.maxPageSize ?? 100, after);
  return judgeContainment(source, [...held, ...legalLogs([again])]);
}

/**
 * The verdict of a containment of `source`'s `entries` (in words: `entries of v5.form-items`) in `holder`:
 * a pass naming what was held, or the first confirmed omission.
 */
function holdingFinding(source: Route, holder: Route, entries: string, judged: Containment): SubjectFinding {
  const omission = judged.omission;
  if (!omission) {
    return passOn(
      holder.id,
      `${holder.id} holds the ${judged.formEntries} ${entries} (${judged.organizationEntries} in all)`,
    );
  }
  const { missing, page, witness, formCrawl } = omission;
  const reason = `${missing.length} of the ${judged.formEntries} ${entries} ${missing.length === 1 ? "is" : "are"} missing from ${holder.id} (${idList(missing)}), crawled to its end after ${source.id}`;
  const evidence: Evidence = {
    ...pageExchange(page),
    diagnostics: [
      reason,
      `${source.id} (${formCrawl.label}) served ${missing[0]} on page ${page.index}: ${page.url}`,
      `${holder.id} (${witness.label}) ended on ${witness.end === "empty-page" ? "an empty page" : "a page without a token"} after ${witness.pages.length} pages, without it`,
    ],
    crawl: crawlPicture(
      witness,
      undefined,
      `${entries}, ${missing[0]} among them`,
      `${idsOfCrawl(witness).size} entries, without ${idList(missing)}`,
    ),
  };
  return failOn(holder.id, reason, evidence);
}

/** The label of the crawl of an organization's listing made after its form's, to confirm an omission. */
const ORGANIZATION_AFTER = "after the form's crawls";

/**
 * One form listing against its organization's, over the crawls the completeness checks made of both;
 * then the same listing of other forms of the organization, each crawled once at the largest page size.
 */
async function judgeOrganizationPair(
  ctx: CheckContext,
  form: Route,
  organization: Route,
): Promise<SubjectFinding> {
  const logs = await logsOfPair(ctx, form, organization, organization.id);
  if ("verdict" in logs) return logs;
  const judged = await judgeHolding(ctx, logs.form, organization, logs.organization, ORGANIZATION_AFTER);
  const own = holdingFinding(form, organization, `entries of ${form.id}`, judged);
  if (own.verdict !== "pass") return own;
  let entries = 0;
  let forms = 0;
  for (const other of await otherForms(ctx)) {
    const crawl = await ctx.crawlOfForm(form, other);
    // A listing the provider does not serve for that form (a checkout's, say) vouches for nothing.
    if (!endedLegally(crawl.stop)) continue;
    const name = `${other.formType}/${other.formSlug}`;
    const held = await judgeHolding(
      ctx,
      [crawl.log],
      organization,
      logs.organization,
      `${ORGANIZATION_AFTER} (${name})`,
    );
    if (held.omission) return holdingFinding(form, organization, `entries of ${form.id} for ${name}`, held);
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
export const organizationHoldsFormsCheck = specCheck({
  id: "pagination/organization-holds-forms",
  rule: "pagination.organization-holds-forms",
  title: "An organization's listing holds every entry of its forms' listings",
  run: (ctx) =>
    judgeFormPairs(ctx, judgeOrganizationPair, "organization listings that hold their form's entries"),
});

/** The label of the crawl of a form's listing made after its organization's, to confirm an omission. */
const FORM_AFTER = "after the organization's crawls";

/** One form listing against the entries its organization's listing names as that form's. */
async function judgeFormPair(ctx: CheckContext, form: Route, organization: Route): Promise<SubjectFinding> {
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
    return skipOn(
      form.id,
      `no entry of ${organization.id} names its form (formType and formSlug, on the entry or its order)`,
    );
  }
  const judged = await judgeHolding(ctx, named, form, logs.form, FORM_AFTER);
  const entries = `entries ${organization.id} names as ${formType}/${formSlug}'s`;
  return holdingFinding(organization, form, entries, judged);
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
export const formHoldsItsEntriesCheck = specCheck({
  id: "pagination/form-holds-its-entries",
  rule: "pagination.form-holds-its-entries",
  title:
    "A form's listing holds every entry its organization's listing names as the form's, and no other form's",
  run: (ctx) =>
    judgeFormPairs(
      ctx,
      judgeFormPair,
      "form listings that hold what their organization names as theirs, and no other",
    ),
});
