import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import type { RunningSandbox } from "../../sandbox/index.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { BOUNDARY_ORGANIZATION, boundaryCounts } from "../../specs/runner/context.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";
import { type Rewrite, rewriting } from "./support/rewriting-provider.js";

const AT = "2026-01-01" as IsoDay;
const LIMIT = 20;
const atDefault = (query: URLSearchParams) => queryValue(query, "pageSize") === undefined;

/** A data file declaring CursorProof's boundary listings beside a main form: forms of 0, 1, 19, 20, 21 and 41 orders. */
const boundaryData = () => {
  const forms = boundaryCounts(LIMIT)
    .map((orders) => `      - { type: Donation, slug: dons-${orders}, orders: ${orders} }`)
    .join("\n");
  const text = `main: { organization: club-des-bornes, form: Event/principal }
organizations:
  - slug: club-des-bornes
    forms:
      - { type: Event, slug: principal, orders: 45 }
${forms}
`;
  return buildSandboxData(parseDataFile(text, "boundaries.yaml"), 1);
};

/**
 * The two ways to boundary listings: a data file's forms of the crawled organization, without provider
 * states; and the forms the state "a form with entries" seeds in an organization of their own (the ready-made
 * data). `form` is what a verdict names the listing of `orders` entries by.
 */
const WAYS = [
  [
    "a data file, without provider states",
    { hooks: false, data: boundaryData() },
    (n: number) => `dons-${n}`,
  ],
  ["provider states", {}, (n: number) => `collecte-${n} of ${BOUNDARY_ORGANIZATION}`],
] as const;

/** Drops the entry alone on the second page, at the default page size: a listing of limit + 1 loses its last. */
const dropsLimitPlusOne: Rewrite = (query, entries, _url, servedBefore) =>
  atDefault(query) && servedBefore === LIMIT && entries.length === 1 ? [] : entries;

/** After an exactly full last page (at the default size), serves that page again instead of the empty end. */
const repeatsFullPage: Rewrite = (query, entries, _url, servedBefore, pageBefore) =>
  atDefault(query) && servedBefore === LIMIT && entries.length === 0 && pageBefore?.length === LIMIT
    ? pageBefore
    : entries;

/** No token on the exactly full page of the listing of `limit` entries (at the default size): legal, a client may stop there. */
function noTokenOnFullPage(seen: { pages: number }): Rewrite {
  return (query, entries, url, servedBefore) => {
    const full = /-20\/[a-z]+$/.test(url.pathname) && servedBefore === 0 && entries.length === LIMIT;
    if (!atDefault(query) || !full) return entries;
    seen.pages++;
    return { entries, token: null };
  };
}

describe("boundary listings: 0, 1, limit - 1, limit, limit + 1 and 2 * limit + 1 entries", () => {
  it("are the counts around the limit", () => {
    expect(boundaryCounts(20)).toEqual([0, 1, 19, 20, 21, 41]);
  });

  it.each(WAYS)("catch a provider that drops the last entry of limit + 1 (%s)", async (_, way, form) => {
    const report = await verifySandbox(AT, { ...way, through: rewriting(dropsLimitPlusOne) });
    expect(checksIn(problems(report))).toEqual(["pagination/empty-page-only-at-end"]);
    expect(byId(report, "pagination/empty-page-only-at-end")?.reason).toContain(form(LIMIT + 1));
  });

  it.each(WAYS)("catch a provider that repeats an exactly full last page (%s)", async (_, way, form) => {
    const report = await verifySandbox(AT, { ...way, through: rewriting(repeatsFullPage) });
    const found = checksIn(problems(report));
    expect(found).toHaveLength(1);
    expect(["pagination/end-is-empty-array", "pagination/token-echoed"]).toContain(found[0]);
    expect(problems(report)[0]).toContain(form(LIMIT));
  });

  it.each(WAYS)(
    "pass a clean provider, and one without a token on an exactly full last page (%s)",
    async (_, way) => {
      expect(problems(await verifySandbox(AT, way))).toEqual([]);
      const seen = { pages: 0 };
      const through = rewriting(noTokenOnFullPage(seen));
      expect(problems(await verifySandbox(AT, { ...way, through }))).toEqual([]);
      expect(seen.pages).toBeGreaterThan(0);
    },
  );

  it("catch the sandbox's limit-plus-one-drops-last on the state's listing of limit + 1, on its rule alone", async () => {
    const report = await verifySandbox(AT, { fault: "limit-plus-one-drops-last" });
    expect(checksIn(problems(report))).toEqual(["pagination/empty-page-only-at-end"]);
    const found = byId(report, "pagination/empty-page-only-at-end")?.evidence?.diagnostics ?? [];
    const listing = `Donation/collecte-21 of ${BOUNDARY_ORGANIZATION}, the default page size ended on an empty page`;
    expect(found.filter((line) => line.startsWith(listing))).toHaveLength(1);
  });

  it("seed them through the state in an organization of their own: the crawled organization keeps its forms", async () => {
    let sandbox: RunningSandbox | undefined;
    let before: string[] = [];
    const formsOf = (slug: string) =>
      sandbox?.core.store.forms(slug).map((f) => `${f.formType}/${f.formSlug}:${f.count}`) ?? [];
    const report = await verifySandbox(AT, {
      through: async (started) => {
        sandbox = started;
        before = formsOf(started.credentials.organizationSlug);
        return { url: started.url, close: async () => {} };
      },
    });
    expect(problems(report)).toEqual([]);
    const crawled = sandbox?.credentials.organizationSlug ?? "";
    // The run's own form (count 45) and the checkout page's are all the run added to the crawled organization.
    expect(formsOf(crawled).filter((f) => !before.includes(f))).toEqual([
      "Donation/collecte-45:45",
      "Checkout/default:0",
    ]);
    expect(formsOf(BOUNDARY_ORGANIZATION).map((f) => Number(f.split(":")[1]))).toEqual(boundaryCounts(LIMIT));
  });

  it("leave the drop unseen where no listing holds limit + 1 entries (the ready-made data, no states)", async () => {
    const report = await verifySandbox(AT, { hooks: false, through: rewriting(dropsLimitPlusOne) });
    expect(problems(report)).toEqual([]);
  });
});
