import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { fullLastPageSize } from "../../specs/pagination/crawl-plan.js";
import { checksIn, problems, verifySandbox } from "./support/harness.js";
import { type Rewrite, rewriting } from "./support/rewriting-provider.js";

const sizeOf = (query: URLSearchParams) => Number(queryValue(query, "pageSize") ?? 20);
const continues = (query: URLSearchParams) => queryValue(query, "continuationToken") !== undefined;

/**
 * A provider that answers the page after an exactly full last page its own way: `after` takes the place
 * of that (empty) page, given the first page of the same crawl. The sandbox's 50 entries end on a full
 * page at none of the default, small and largest sizes (20, 7, 100).
 */
function afterFullLastPage(after: (first: unknown[]) => unknown): Rewrite {
  const firsts = new Map<string, unknown[]>();
  return (query, entries, url, servedBefore) => {
    const crawl = `${url.pathname} ${sizeOf(query)} ${queryValue(query, "sortOrder") ?? ""}`;
    if (!continues(query)) firsts.set(crawl, entries);
    const full = continues(query) && entries.length === 0 && servedBefore % sizeOf(query) === 0;
    return full && servedBefore > 0 ? after(firsts.get(crawl) ?? []) : entries;
  };
}

describe("the size at which a listing ends on an exactly full page", () => {
  it("is the largest that takes two pages or more, else the count itself", () => {
    expect(fullLastPageSize(50, [20, 7, 100], 100)).toBe(25);
    expect(fullLastPageSize(3, [20, 7, 100], 100)).toBe(3); // never 1 over several pages
    expect(fullLastPageSize(22, [20, 7, 100], 100)).toBe(11);
    expect(fullLastPageSize(1, [20, 7, 100], 100)).toBe(1);
    expect(fullLastPageSize(47, [20, 7, 100], 100)).toBe(47);
    expect(fullLastPageSize(270, [20, 7, 100], 100)).toBe(90);
  });

  it("is none when a crawled size ends on a full page already, the listing is empty or every size takes too many pages", () => {
    expect(fullLastPageSize(40, [20, 7, 100], 100)).toBeUndefined();
    expect(fullLastPageSize(300, [20, 7, 100], 100)).toBeUndefined(); // 100 divides it: crawled already
    expect(fullLastPageSize(49, [20, 7, 100], 100)).toBeUndefined();
    expect(fullLastPageSize(0, [20, 7, 100], 100)).toBeUndefined();
    expect(fullLastPageSize(1009, [20, 7, 100], 100)).toBeUndefined(); // a prime: 1,009 pages of one
  });
});

describe("verify crawls each listing once to an exactly full last page", () => {
  it("flags a provider that refuses the token an exactly full last page gave", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting(afterFullLastPage(() => ({ refuse: 500 }))),
    });
    const found = problems(report);
    expect(checksIn(found)).toContain("pagination/token-echoed");
    expect(found.find((p) => p.startsWith("pagination/token-echoed"))).toMatch(/pageSize 25/);
  });

  it("flags a provider that serves the first page again after an exactly full last page", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting(afterFullLastPage((first) => first)),
    });
    expect(checksIn(problems(report))).toContain("pagination/end-is-empty-array");
  });

  it("passes a provider whose exactly full last page gives no token (a client may stop there)", async () => {
    let untokened = 0;
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries, _url, servedBefore) => {
        if (sizeOf(query) !== 25 || servedBefore + entries.length !== 50) return entries;
        untokened++;
        return { entries, token: null };
      }),
    });
    expect(problems(report)).toEqual([]);
    expect(untokened).toBeGreaterThan(0);
  });
});
