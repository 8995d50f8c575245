import {
  type Containment,
  type CrawlLog,
  idsOfCrawl,
  judgeContainment,
  type Route,
} from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { legalLogs } from "../runner/crawler.js";
import type { Evidence } from "../runner/types.js";
import { combine, type SubjectFinding } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, pageExchange } from "./completeness.js";
import { idList } from "./listing-findings.js";

/** The organization's listing of the same kind and version as a form's listing; undefined if none is served. */
export function organizationOf(form: Route, served: readonly Route[]): Route | undefined {
  const path = form.path.replace("/forms/{formType}/{formSlug}", "");
  return path === form.path ? undefined : served.find((r) => r.path === path && r.method === form.method);
}

/** One listing that must hold entries another serves: `source`'s `entries` (in words) in `holder`. */
export interface Holding {
  readonly source: Route;
  readonly holder: Route;
  /** The entries of `source` that `holder` must hold, in words: `entries of v5.form-items`. */
  readonly entries: string;
}

/** The crawls the completeness checks made of a form's listing and of its organization's. */
export interface PairLogs {
  readonly form: readonly CrawlLog[];
  readonly organization: readonly CrawlLog[];
}

/**
 * Runs `judge` on every served form listing whose organization's listing is served too, and combines
 * the findings under `what`.
 */
export async function judgeFormPairs(
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
export async function logsOfPair(
  ctx: CheckContext,
  form: Route,
  organization: Route,
  subject: string,
): Promise<PairLogs | SubjectFinding> {
  const [ofForm, ofOrganization] = [await completenessOf(ctx, form), await completenessOf(ctx, organization)];
  if (ofForm.kind === "skip") return { verdict: "skip", subject, reason: `${form.id}: ${ofForm.reason}` };
  if (ofOrganization.kind === "skip") {
    return { verdict: "skip", subject, reason: `${organization.id}: ${ofOrganization.reason}` };
  }
  return { form: ofForm.logs, organization: ofOrganization.logs };
}

/**
 * `source`'s entries judged against `holder`'s crawls; when an omission is unconfirmed, `holder` is
 * crawled once more at its largest page size (labelled `after`) and judged again with that crawl too.
 */
export async function judgeHolding(
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

/** The verdict of a containment: a pass naming what was held, or the first confirmed omission. */
export function holdingFinding({ source, holder, entries }: Holding, judged: Containment): SubjectFinding {
  const omission = judged.omission;
  if (!omission) {
    return {
      verdict: "pass",
      subject: holder.id,
      reason: `${holder.id} holds the ${judged.formEntries} ${entries} (${judged.organizationEntries} in all)`,
    };
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
  return { verdict: "fail", subject: holder.id, reason, evidence };
}
