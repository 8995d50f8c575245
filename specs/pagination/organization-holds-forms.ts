import { type Containment, idsOfCrawl, judgeContainment, type Route } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import type { Evidence } from "../runner/types.js";
import { combine, type Finding, type SpecCheck } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, legalLogs } from "./completeness.js";

/** The label of the crawl of an organization's listing made after its form's, to confirm an omission. */
const AFTER = "after the form's crawls";

/** The organization's listing of the same kind and version as a form's listing; undefined if none is served. */
export function organizationOf(form: Route, served: readonly Route[]): Route | undefined {
  const path = form.path.replace("/forms/{formType}/{formSlug}", "");
  return path === form.path ? undefined : served.find((r) => r.path === path && r.method === form.method);
}

const idList = (ids: readonly number[]) =>
  ids.length <= 10 ? ids.join(", ") : `${ids.slice(0, 10).join(", ")} … (${ids.length} in all)`;

/** One listing that must hold entries another serves: `source`'s `entries` (in words) in `holder`. */
export interface Holding {
  readonly source: Route;
  readonly holder: Route;
  /** The entries of `source` that `holder` must hold, in words: `entries of v5.form-items`. */
  readonly entries: string;
}

/** The verdict of a containment: a pass naming what was held, or the first confirmed omission. */
export function holdingFinding({ source, holder, entries }: Holding, judged: Containment): Finding {
  const omission = judged.omission;
  if (!omission) {
    return {
      kind: "pass",
      subject: holder.id,
      note: `${holder.id} holds the ${judged.formEntries} ${entries} (${judged.organizationEntries} in all)`,
    };
  }
  const { missing, page, witness, formCrawl } = omission;
  const reason = `${missing.length} of the ${judged.formEntries} ${entries} ${missing.length === 1 ? "is" : "are"} missing from ${holder.id} (${idList(missing)}), crawled to its end after ${source.id}`;
  const evidence: Evidence = {
    request: { method: "GET", url: page.url },
    response: {
      status: page.status,
      excerpt: JSON.stringify({ ids: page.ids.slice(0, 20), continuationToken: page.token ?? null }),
    },
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
  return { kind: "fail", subject: holder.id, reason, evidence };
}

/** One form listing against its organization's, over the crawls the completeness checks made of both. */
async function judgePair(ctx: CheckContext, form: Route, organization: Route): Promise<Finding> {
  const [ofForm, ofOrganization] = [await completenessOf(ctx, form), await completenessOf(ctx, organization)];
  if (ofForm.kind === "skip")
    return { kind: "skip", subject: organization.id, reason: `${form.id}: ${ofForm.reason}` };
  if (ofOrganization.kind === "skip") {
    return { kind: "skip", subject: organization.id, reason: `${organization.id}: ${ofOrganization.reason}` };
  }
  let judged = judgeContainment(ofForm.logs, ofOrganization.logs);
  if (judged.unconfirmed.length > 0) {
    const largest = organization.pagination?.maxPageSize ?? 100;
    const after = await ctx.crawlSized(organization, largest, AFTER);
    judged = judgeContainment(ofForm.logs, [...ofOrganization.logs, ...legalLogs([after])]);
  }
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
  async run(ctx) {
    const served = ctx.servedListings();
    const findings: Finding[] = [];
    for (const form of served) {
      const organization = organizationOf(form, served);
      if (organization) findings.push(await judgePair(ctx, form, organization));
    }
    return combine(findings, "organization listings that hold their form's entries");
  },
};
