import { type Route, windowOf } from "../../contracts/index.js";
import { isoInstant } from "../../core/dates.js";
import { type CheckContext, readerGet } from "../runner/context.js";
import { queryString } from "../runner/crawl-query.js";
import { describeStop, endedLegally, pageOf } from "../runner/crawler.js";
import { evidenceOf, type HttpExchange } from "../runner/http.js";
import { failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { otherForms, takesWindow } from "./crawl-plan.js";
import { judgeListings } from "./listing-findings.js";

const RULE = "pagination.token-bound";

/**
 * A refusal of a token that is not the listing's: a 4xx, whichever (400, 404, 409, 422 …), but 401 (the
 * credentials, not the token) and 429 (a rate limit, waited out by the client before it gets here).
 */
export const refusesToken = (status: number) =>
  status >= 400 && status < 500 && status !== 401 && status !== 429;

/** Where a listing's token is sent that is not its crawl's: the URL and query there, and what it is. */
interface Elsewhere {
  readonly what: string;
  readonly url: string;
  readonly query: readonly (readonly [string, string])[];
}

/** Another listing of the same version served at the date, another form of it, a date window of it. */
async function elsewhere(ctx: CheckContext, route: Route): Promise<Elsewhere[]> {
  const crawl = await ctx.crawl(route, "default");
  const query = crawl.log.query ?? [];
  const places: Elsewhere[] = [];
  const served = ctx.servedListings().filter((r) => r.version === route.version && r.id !== route.id);
  const listing = served.find((r) => r.pathParams.length === route.pathParams.length) ?? served[0];
  if (listing) places.push({ what: `the listing ${listing.id}`, url: await ctx.urlOf(listing), query });
  if (route.pathParams.includes("formSlug")) {
    const [form] = await otherForms(ctx);
    if (form) {
      const url = await ctx.urlOf(route, { ...form });
      places.push({ what: `the form ${form.formType}/${form.formSlug}`, url, query });
    }
  }
  const window = takesWindow(route) ? windowOf(crawl.log) : undefined;
  if (window) {
    const ends: [string, string][] = [
      ["from", isoInstant(window.from)],
      ["to", isoInstant(window.to)],
    ];
    const what = `a date window of it (from ${ends[0]?.[1]} to ${ends[1]?.[1]})`;
    places.push({ what, url: await ctx.urlOf(route), query: [...query, ...ends] });
  }
  return places;
}

/**
 * The first token of a listing's default crawl, sent with another listing, another form and a date
 * window of the listing: each must be refused, never answered with a page, which a client that mixed up
 * its tokens would take for that listing's next entries.
 */
async function judgeListing(ctx: CheckContext, route: Route): Promise<SubjectFinding> {
  const crawl = await ctx.crawl(route, "default");
  if (!endedLegally(crawl.stop)) return skipOn(route.id, describeStop(crawl));
  const token = crawl.tokens.first;
  if (token === undefined) return skipOn(route.id, "one page only: no token to reuse");
  const places = await elsewhere(ctx, route);
  const accepted: { place: Elsewhere; exchange: HttpExchange }[] = [];
  for (const place of places) {
    const tokenName = crawl.log.tokenName ?? "continuationToken";
    const exchange = await readerGet(ctx, `${place.url}?${queryString(place.query, token, tokenName)}`);
    if (!refusesToken(exchange.status)) accepted.push({ place, exchange });
  }
  const [first] = accepted;
  if (!first) {
    const where = places.map((p) => p.what).join(", ");
    return places.length === 0
      ? skipOn(route.id, "no other listing, form or date window to send its token with")
      : passOn(route.id, `${route.id}'s token refused by ${where}`);
  }
  const page = pageOf(first.exchange, route);
  const answered =
    first.exchange.status < 300
      ? `answered ${first.exchange.status}${page ? ` with ${page.ids.length} entries` : ""}`
      : `answered ${first.exchange.status}, a failure of the provider rather than a refusal`;
  return failOn(
    route.id,
    `a continuation token of ${route.id}'s crawl, sent with ${first.place.what}, was not refused: ${answered}; a client that mixed up its tokens would take that for the next entries${
      accepted.length > 1
        ? ` (also ${accepted
            .slice(1)
            .map((a) => a.place.what)
            .join(", ")})`
        : ""
    }`,
    evidenceOf(first.exchange, page?.pagination, [
      `the token came from the crawl of ${route.id}: ${crawl.log.pages[0]?.url ?? ""}`,
    ]),
  );
}

/**
 * Cursor binding (CursorProof's probe): a token is one crawl's. Sent with another listing, another form
 * or a date window of its own listing, it is refused with a 4xx; a provider that serves a page for it
 * lets a client that keeps tokens per listing read one listing's position in another.
 */
export const tokenBoundCheck = specCheck({
  id: "pagination/token-bound",
  rule: RULE,
  title: "A token reused with another listing, form or date window is refused",
  run: (ctx) =>
    judgeListings(ctx, judgeListing, "listings whose token no other listing, form or window accepted"),
});
