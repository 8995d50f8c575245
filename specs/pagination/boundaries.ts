import { judgeCompleteness, type Loss, type Route } from "../../contracts/index.js";
import type { CheckContext, FormPlace } from "../runner/context.js";
import { type CrawlResult, legalLogs } from "../runner/crawler.js";
import type { FormRef } from "../runner/options.js";
import { otherForms } from "./organization-holds-forms.js";

/** Most of the organization's forms crawled as boundary listings without provider states. */
const BOUNDARY_FORMS = 8;

/**
 * The forms crawled as boundary listings: those the provider state seeded with CursorProof's counts
 * (`boundaryCounts`) in an organization of their own, else the organization's other forms as its forms
 * listing names them (the first 8): a data file that declares forms of 0, 1, _L_ − 1, _L_, _L_ + 1 and
 * 2·_L_ + 1 orders makes them boundary listings. Either way the same crawls judge them.
 */
async function boundaryForms(ctx: CheckContext): Promise<readonly (FormRef | FormPlace)[]> {
  const { boundaryForms: seeded } = await ctx.coordinates();
  return seeded.length > 0 ? seeded : otherForms(ctx, BOUNDARY_FORMS);
}

/**
 * Each boundary form's listing of `route` (a form's listing), crawled at the largest page size, then at
 * the default one (the limit the counts are around), and at the largest once more where the default crawl
 * lacks entries: every crawl made, and the losses the crawl judge confirms. Nothing for other listings.
 */
export async function boundaryLosses(
  ctx: CheckContext,
  route: Route,
): Promise<{ readonly made: readonly CrawlResult[]; readonly losses: readonly Loss[] }> {
  if (!route.pathParams.includes("formSlug")) return { made: [], losses: [] };
  const forms = await boundaryForms(ctx);
  const judged = await Promise.all(
    forms.map(async (form) => {
      const crawls = [await ctx.crawlOfForm(route, form)];
      crawls.push(await ctx.crawlOfForm(route, form, { defaultSize: true }));
      let found = judgeCompleteness(legalLogs(crawls));
      if (found.suspects.length > 0) {
        crawls.push(await ctx.crawlOfForm(route, form, { again: "again" }));
        found = judgeCompleteness(legalLogs(crawls));
      }
      return { made: crawls, losses: found.losses };
    }),
  );
  return { made: judged.flatMap((j) => j.made), losses: judged.flatMap((j) => j.losses) };
}
