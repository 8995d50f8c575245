import {
  type Completeness,
  type CompletenessRule,
  type CrawlLog,
  type CrawlPageLog,
  type EntryId,
  judgeCompleteness,
  type Loss,
  oneDefect,
  type Route,
} from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { type CrawlResult, describeStop, endedLegally, legalLogs } from "../runner/crawler.js";
import type { Evidence, EvidenceCrawl } from "../runner/types.js";
import {
  combine,
  failOn,
  passOn,
  type SpecCheck,
  type SubjectFinding,
  skipOn,
  specCheck,
} from "../runner/verdicts.js";
import {
  boundarySizes,
  countsCrawlWithCount,
  explicitQuery,
  fullLastPageSize,
  otherForms,
  otherSizes,
  REAL_CLIENTS_TOKEN,
  takesSortOrder,
  windowCrawl,
  witnessSize,
} from "./crawl-plan.js";
import { namedWitnesses, namingCrawls } from "./named-witnesses.js";
import { oracleOf } from "./oracle.js";

/**
 * The completeness of one listing: judged over its crawls, or skipped with the reason. `made` is every
 * crawl made of it, whether it ended legally or not: the checks that own a crawl's violation read them.
 */
export type CompletenessOutcome =
  | { readonly kind: "skip"; readonly reason: string; readonly made: readonly CrawlResult[] }
  | {
      readonly kind: "judged";
      readonly judged: Completeness;
      readonly crawls: readonly CrawlResult[];
      /** The logs of the crawls that ended legally: what the judge read. */
      readonly logs: readonly CrawlLog[];
      readonly made: readonly CrawlResult[];
    };

/**
 * Crawls a listing at its default page size and at two others, oldest first (`sortOrder=Asc`) and with
 * `withCount=true` where the listing takes them, judges the crawls as a whole and, when a
 * crawl lacks entries that no earlier crawl can vouch for, asks that crawl again exactly and then the
 * listing once more as a witness (at the size that collected most), so that entries added while the
 * listing was crawled are never taken for losses. A date window's crawl, and the crawls of the listings
 * whose entries name this one's (`pagination.names`), are witnesses: they vouch for entries every crawl
 * of the whole listing lacks. Memoised per run: the checks that judge whole crawls share it.
 */
export function completenessOf(ctx: CheckContext, route: Route): Promise<CompletenessOutcome> {
  return ctx.memo.get(`completeness:${route.id}`, async () => {
    // The listings whose entries name this one's (an item its order), crawled before it: they vouch for
    // entries this listing leaves out at every size and in every order.
    const naming = await namingCrawls(ctx, route);
    const { oracle } = await oracleOf(ctx, route);
    const first = await ctx.crawl(route, "default");
    const made: CrawlResult[] = [first];
    if (!endedLegally(first.stop)) {
      return { kind: "skip", reason: `the crawl did not end cleanly: ${describeStop(first)}`, made };
    }
    if (first.entries > ctx.options.maxEntries) {
      return {
        kind: "skip",
        reason: `${first.entries} entries, more than --max-entries ${ctx.options.maxEntries}: not crawled at other page sizes, so entries lost at a page boundary were not looked for (raise --max-entries to check)`,
        made,
      };
    }
    const crawls: CrawlResult[] = [first];
    // A size the provider refuses, or a crawl another rule's violation cut, is left out (that rule's
    // check reports the cut): the crawls that ended are still judged together.
    const take = (result: CrawlResult) => {
      made.push(result);
      if (endedLegally(result.stop)) crawls.push(result);
    };
    const others = otherSizes(route, ctx.options.pageSize);
    const largest = Math.max(...others);
    const counted = countsCrawlWithCount(ctx, route);
    const explicit = explicitQuery(route, counted);
    for (const size of others) {
      const asked =
        size === largest
          ? await ctx.crawlAsked(
              route,
              [["pageSize", String(size)], ...explicit],
              `pageSize ${size} (${[...explicit.map((pair) => pair.join("=")), REAL_CLIENTS_TOKEN].join(", ")})`,
              REAL_CLIENTS_TOKEN,
            )
          : undefined;
      // A provider that refuses what the explicit crawl asks at once is crawled at that size plainly.
      if (asked?.stop.kind === "first-page-refused") made.push(asked);
      take(asked && asked.stop.kind !== "first-page-refused" ? asked : await ctx.crawlSized(route, size));
    }
    // At a size that ends the listing on an exactly full page, unless a size above does: the token that
    // page gives must lead to the empty page (a provider may answer it with an error or the first page).
    const crawled = [ctx.options.pageSize ?? route.pagination?.defaultPageSize ?? 20, ...others];
    const full = fullLastPageSize(first.entries, crawled, largest);
    const fullSizes = full ? [full] : [];
    // And at the sizes where the listing is one entry more than a page, and two pages and one.
    for (const size of [...fullSizes, ...boundarySizes(first.entries, [...crawled, ...fullSizes], largest)]) {
      take(await ctx.crawlSized(route, size));
    }
    // Oldest first too: a provider that loses entries at a place in the crawl (its first or last page, its
    // end) loses other entries this way round. One that cannot crawl so is pagination.date-order's.
    if (takesSortOrder(route)) take(await ctx.crawl(route, "ascending"));
    // With the totals asked too, as a client still sending withCount=true does: the provider may answer
    // it by another path. The counts checks' crawl where they make one, else the explicit crawl above.
    if (counted) take(await ctx.crawl(route, "with-count"));
    // A date window over the newest entries (pagination.date-window's crawl): the entries it holds vouch
    // for entries every crawl of the whole listing lacks, a loss no crawl of the whole could show.
    const windows = [await windowCrawl(ctx, route, first.log)];
    let logs = crawls.map((c) => c.log);
    const windowLogs = () => legalLogs(windows.flatMap((w) => (w ? [w.crawl] : [])));
    const witnesses = () => [...windowLogs(), ...namedWitnesses(route, naming, logs)];
    let judged = judgeCompleteness(logs, witnesses(), oracle);
    if (judged.suspects.length > 0) {
      const sizes = new Set(
        judged.suspects.map((s) => s.crawl.pageSize ?? route.pagination?.defaultPageSize ?? 20),
      );
      // Each suspect crawl once more, asked exactly as it was: a provider may lose entries only when
      // no pageSize is sent, or only oldest first.
      const more: CrawlResult[] = [];
      for (const log of new Set(judged.suspects.map((s) => s.crawl))) {
        more.push(await ctx.crawlAsked(route, log.query ?? [], `${log.label} (again)`, log.tokenName));
      }
      more.push(await ctx.crawlSized(route, witnessSize([...crawls, ...more], sizes, largest), "witness"));
      crawls.push(...more);
      made.push(...more);
      // The window again, after them: an entry only it held must still be there for the loss to stand.
      if (windowLogs().length > 0) windows.push(await windowCrawl(ctx, route, first.log, "again"));
      // And the naming listings again: an entry only they named must still be named for the loss to stand.
      if (naming.length > 0) naming.push(...(await namingCrawls(ctx, route, "again")));
      logs = legalLogs(crawls);
      judged = judgeCompleteness(logs, witnesses(), oracle);
    }
    // The boundary listings of a form's listing (other forms), judged each on its own, filed with it.
    const boundary = await boundaryLosses(ctx, route);
    made.push(...boundary.made);
    judged = { ...judged, losses: oneDefect([...judged.losses, ...boundary.losses]) };
    return { kind: "judged", judged, crawls, logs, made };
  });
}

/** Most of the organization's forms crawled as boundary listings without provider states. */
const BOUNDARY_FORMS = 8;

/**
 * Each boundary form's listing of `route` (a form's listing), crawled at the largest page size, then at
 * the default one (the limit the counts are around), and at the largest once more where the default crawl
 * lacks entries: every crawl made, and the losses the crawl judge confirms. Nothing for other listings.
 * The boundary forms are those the provider state seeded with CursorProof's counts (`boundaryCounts`) in
 * an organization of their own, else the organization's other forms as its forms listing names them (the
 * first 8): a data file that declares forms of 0, 1, _L_ − 1, _L_, _L_ + 1 and 2·_L_ + 1 orders makes
 * them boundary listings. Either way the same crawls judge them.
 */
async function boundaryLosses(
  ctx: CheckContext,
  route: Route,
): Promise<{ readonly made: readonly CrawlResult[]; readonly losses: readonly Loss[] }> {
  if (!route.pathParams.includes("formSlug")) return { made: [], losses: [] };
  const { boundaryForms: seeded } = await ctx.coordinates();
  const forms = seeded.length > 0 ? seeded : await otherForms(ctx, BOUNDARY_FORMS);
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

/**
 * A page of a crawl as evidence's request and response: its URL, its status, and an excerpt of its first
 * 20 ids and the token it gave.
 */
export function pageExchange(page: CrawlPageLog | undefined): Pick<Evidence, "request" | "response"> {
  return {
    request: { method: "GET", url: page?.url ?? "" },
    response: {
      status: page?.status ?? 0,
      excerpt: JSON.stringify({ ids: page?.ids.slice(0, 20) ?? [], continuationToken: page?.token ?? null }),
    },
  };
}

/** The crawl drawn as evidence: each page with its entry count, ids at its edges and tokens. */
export function crawlPicture(
  log: CrawlLog,
  offending: CrawlPageLog | undefined,
  expected: string,
  actual: string,
): EvidenceCrawl {
  return {
    label: log.label,
    ...(log.pageSize === undefined ? {} : { pageSize: log.pageSize }),
    pages: log.pages.map((page) => ({
      index: page.index,
      url: page.url,
      status: page.status,
      entries: page.ids.length,
      ...(page.ids.length > 0 ? { firstId: page.ids[0] as EntryId, lastId: page.ids.at(-1) as EntryId } : {}),
      ...(page.sentToken === undefined ? {} : { tokenSent: page.sentToken }),
      ...(page.token === undefined ? {} : { tokenGiven: page.token }),
      ...(page === offending ? { offending: true } : {}),
    })),
    expected,
    actual,
  };
}

/** The `curl` line that asks one page again, the reader's token left to the user (`$TOKEN`). */
export const curlOf = (url: string) =>
  `curl -sS -H "Authorization: Bearer $TOKEN" '${url.replaceAll("'", "'\\''")}'`;

/** How many pages of its crawl show a loss: its first to the offending one. */
const span = (loss: Loss) => loss.offending?.index ?? loss.crawl.pages.length;

/** Every missing id, up to a bound that keeps a report readable (the count is always given). */
const MISSING_LISTED = 500;
function missingList(ids: readonly EntryId[]): string {
  const shown = ids.slice(0, MISSING_LISTED).join(", ");
  return ids.length > MISSING_LISTED ? `${shown} … and ${ids.length - MISSING_LISTED} more` : shown;
}

/** The evidence of a loss: the offending request, the crawl drawn, the reason and a repro. */
export function lossEvidence(loss: Loss): Evidence {
  const page = loss.offending ?? loss.crawl.pages.at(-1);
  const expected = `${loss.missing.length} more entries (${loss.missing.slice(0, 10).join(", ")}${loss.missing.length > 10 ? ", …" : ""}), as ${loss.witness.label} has them`;
  const actual = loss.shared
    ? `${loss.shared.length} crawls, none of them with these entries`
    : loss.after
      ? `page ${page?.index} starts with ${page?.ids[0]} after ${loss.before?.id ?? "nothing"}`
      : `page ${page?.index} ${loss.crawl.end === "no-token" ? "holds entries but no token" : "is empty"}`;
  return {
    ...pageExchange(page),
    diagnostics: [
      loss.reason,
      `missing from ${loss.crawl.label} (${loss.missing.length}): ${missingList(loss.missing)}`,
      `repro (${loss.crawl.label}, the smallest crawl that shows it):`,
      // The requests that show it, first page to the offending one: what the user replays.
      ...loss.crawl.pages.filter((page) => page.index <= span(loss)).map((page) => curlOf(page.url)),
    ],
    crawl: crawlPicture(loss.crawl, page, expected, actual),
  };
}

/** One finding per listing for one completeness rule. */
export async function judgeCompletenessRule(
  ctx: CheckContext,
  rule: CompletenessRule,
  route: Route,
): Promise<SubjectFinding> {
  const outcome = await completenessOf(ctx, route);
  if (outcome.kind === "skip") return skipOn(route.id, outcome.reason);
  const { judged, crawls } = outcome;
  const losses = judged.losses.filter((l) => l.rule === rule);
  // The smallest crawl (fewest pages to the offending one) among them.
  const shown = [...losses].sort((a, b) => span(a) - span(b))[0];
  if (shown) {
    const others = losses.filter((l) => l !== shown).map((l) => l.reason);
    const evidence = lossEvidence(shown);
    return failOn(route.id, shown.reason, {
      ...evidence,
      diagnostics: [...(evidence.diagnostics ?? []), ...others],
    });
  }
  const sizes = crawls.map((c) => c.log.label).join(", ");
  const cut = outcome.made.filter((c) => !endedLegally(c.stop));
  const without =
    cut.length > 0 ? `; not judged: ${cut.map((c) => `${c.log.label} (${describeStop(c)})`).join(", ")}` : "";
  const fresh = judged.suspects.reduce((n, s) => n + s.missing.length, 0);
  const grew = fresh > 0 ? `; entries that appeared between crawls were taken as new (${fresh})` : "";
  return passOn(
    route.id,
    `${route.id}: ${judged.entries} entries, the same in ${crawls.length} crawls (${sizes})${grew}${without}`,
  );
}

/** One completeness check: its rule's losses over every listing served at the date. */
export function completenessCheck(
  id: `pagination/${string}`,
  rule: CompletenessRule,
  title: string,
  passed: string,
): SpecCheck {
  return specCheck({
    id,
    rule,
    title,
    async run(ctx) {
      const listings = ctx.servedListings();
      const findings = await Promise.all(listings.map((route) => judgeCompletenessRule(ctx, rule, route)));
      const oracles = await Promise.all(listings.map((route) => oracleOf(ctx, route)));
      const notes = oracles.flatMap(({ note }) => (note ? [`; ${note}`] : []));
      return combine(findings, `${passed}${notes.join("")}`);
    },
  });
}

/**
 * Pagination rules 4 and 6: a client that follows the tokens collects every entry. Crawled at three page
 * sizes, the listing must give the same entries, none lost between two pages. A loss is reported only when
 * a fresh crawl confirms it.
 */
export const completeCheck = completenessCheck(
  "pagination/complete",
  "pagination.complete",
  "Every entry comes in a crawl, whatever the page size",
  "listings with the same entries at every page size",
);

/**
 * Pagination rule 3: a client stops at the first empty page, so an empty page before the last entry loses
 * every entry after it. A loss is reported only when a fresh crawl confirms it.
 */
export const emptyPageOnlyAtEndCheck = completenessCheck(
  "pagination/empty-page-only-at-end",
  "pagination.empty-page-only-at-end",
  "An empty page comes only at the end",
  "listings whose empty page came after their last entry",
);

/**
 * Pagination rule 7: a client may stop at a non-empty page without a token, so such a page before the last
 * entry loses every entry after it. A loss is reported only when a fresh crawl confirms it.
 */
export const tokenUntilEndCheck = completenessCheck(
  "pagination/token-until-end",
  "pagination.token-until-end",
  "A non-empty page carries a token until the end",
  "listings with a token on every page before their end",
);
