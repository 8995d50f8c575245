import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { boundaryCounts } from "../../specs/pagination/boundaries.js";
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

/** Without provider states, and with them (the embedded sandbox's, serving the same data file). */
const WAYS = [
  ["without provider states", { hooks: false, data: boundaryData() }],
  ["with provider states", { data: boundaryData() }],
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

  it.each(WAYS)("catch a provider that drops the last entry of limit + 1 (%s)", async (_, way) => {
    const report = await verifySandbox(AT, { ...way, through: rewriting(dropsLimitPlusOne) });
    expect(checksIn(problems(report))).toEqual(["pagination/empty-page-only-at-end"]);
    expect(byId(report, "pagination/empty-page-only-at-end")?.reason).toMatch(/dons-21/);
  });

  it.each(WAYS)("catch a provider that repeats an exactly full last page (%s)", async (_, way) => {
    const report = await verifySandbox(AT, { ...way, through: rewriting(repeatsFullPage) });
    const found = checksIn(problems(report));
    expect(found).toHaveLength(1);
    expect(["pagination/end-is-empty-array", "pagination/token-echoed"]).toContain(found[0]);
    expect(problems(report)[0]).toMatch(/dons-20/);
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

  it("leave the drop unseen where no listing holds limit + 1 entries (the ready-made data, no states)", async () => {
    const report = await verifySandbox(AT, { hooks: false, through: rewriting(dropsLimitPlusOne) });
    expect(problems(report)).toEqual([]);
  });
});
