import { type Discrepancy, judgeSameness, type Route, type Served } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { completenessOf, crawlPicture, curlOf } from "./completeness.js";
import { idList, judgeListings } from "./listing-findings.js";

const where = (s: Served) => `page ${s.page.index} of ${s.crawl.label}`;

/** The curl lines that show both readings of the entry: its odd page, then a page that read it as usual. */
const repro = (d: Discrepancy) => [d.odd, d.before].map((s) => curlOf(s.page.url));

/** One listing: every entry reads the same in every crawl the completeness checks made of it. */
async function judgeListing(ctx: CheckContext, route: Route): Promise<SubjectFinding> {
  const outcome = await completenessOf(ctx, route);
  if (outcome.kind === "skip") return skipOn(route.id, outcome.reason);
  const found = judgeSameness(outcome.logs);
  const [first] = found;
  if (!first) {
    return passOn(route.id, `${route.id}: each entry read the same in ${outcome.logs.length} crawls`);
  }
  const reason = `entry ${first.id} read otherwise on ${where(first.odd)} than on ${where(first.before)} and, after it, on ${where(first.after)}: the page, not time, decides what it reads${found.length > 1 ? ` (${found.length} entries so: ${idList(found.map((d) => d.id))})` : ""}`;
  return failOn(route.id, reason, {
    request: { method: "GET", url: first.odd.page.url },
    response: {
      status: first.odd.page.status,
      excerpt: JSON.stringify({ ids: first.odd.page.ids.slice(0, 20) }),
    },
    diagnostics: [
      reason,
      "compare the entry in these two answers (the crawls before and after the odd one agree):",
      ...repro(first),
    ],
    crawl: crawlPicture(
      first.odd.crawl,
      first.odd.page,
      `entry ${first.id} as ${where(first.before)} reads it`,
      `entry ${first.id} reads otherwise`,
    ),
  });
}

/**
 * An entry reads the same whatever serves it: a page after the first, another page size, the other
 * order. A provider that serves later pages from a stale copy, or converts amounts on one path only,
 * gives a client that sums the entries of the whole loop another total than one that asks another size;
 * no check of one page or of the ids can see it. An entry that changed while the listing was crawled is
 * not blamed: the crawls before and after the odd one must agree (`judgeSameness`).
 */
export const sameEntryCheck = specCheck({
  id: "pagination/same-entry",
  rule: "pagination.same-entry",
  title: "An entry reads the same whatever the page, the page size or the order",
  run: (ctx) => judgeListings(ctx, judgeListing, "listings whose entries read the same in every crawl"),
});
