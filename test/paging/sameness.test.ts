import { describe, expect, it } from "vitest";
import { type CrawlLog, entryDigest, judgeSameness } from "../../contracts/index.js";
import { crawlOf, desc } from "./crawls.js";

const ALL = desc(100, 30);

/** `crawl` with a fingerprint for each entry: `digestOf(id, page index)`. */
function fingerprinted(crawl: CrawlLog, digestOf: (id: number, page: number) => number): CrawlLog {
  return {
    ...crawl,
    pages: crawl.pages.map((page) => ({
      ...page,
      digests: page.ids.map((id) => digestOf(Number(id), page.index)),
    })),
  };
}
const same = (id: number) => id;
/** Entries on pages after the first read otherwise, as a stale copy serves them. */
const staleAfterFirst = (id: number, page: number) => (page > 1 ? id + 1_000_000 : id);

describe("the judge of what an entry reads flags an entry that reads otherwise on some pages", () => {
  it("names the entry, the odd page and the crawls around it that agree", () => {
    const judged = judgeSameness([
      fingerprinted(crawlOf("the default page size", ALL, { sizes: [20], start: 0 }), same),
      fingerprinted(crawlOf("pageSize 7", ALL, { sizes: [7], start: 10 }), staleAfterFirst),
      fingerprinted(crawlOf("pageSize 100", ALL, { sizes: [100], start: 20 }), same),
    ]);
    expect(judged.map((d) => d.id)).toEqual(ALL.slice(7));
    expect(judged[0]).toMatchObject({
      odd: { crawl: { label: "pageSize 7" }, page: { index: 2 } },
      before: { crawl: { label: "the default page size" } },
      after: { crawl: { label: "pageSize 100" } },
    });
  });
});

describe("the judge of what an entry reads passes every legal variant", () => {
  it("an entry that changes once while the listing is crawled (a payment refunded), and stays so", () => {
    const refunded = (id: number) => (id === ALL[3] ? -1 : id);
    expect(
      judgeSameness([
        fingerprinted(crawlOf("a", ALL, { start: 0 }), same),
        fingerprinted(crawlOf("b", ALL, { sizes: [7], start: 10 }), refunded),
        fingerprinted(crawlOf("c", ALL, { sizes: [100], start: 20 }), refunded),
      ]),
    ).toEqual([]);
  });

  it("crawls asked with the entries' details, which hold more fields, compared apart", () => {
    const detailed = (label: string, start: number) => ({
      ...fingerprinted(crawlOf(label, ALL, { sizes: [100], start }), (id) => id + 5_000_000),
      query: [["withDetails", "True"]] as const,
    });
    expect(
      judgeSameness([
        fingerprinted(crawlOf("a", ALL, { start: 0 }), same),
        detailed("b", 10),
        fingerprinted(crawlOf("c", ALL, { start: 20 }), same),
        detailed("d", 30),
      ]),
    ).toEqual([]);
  });

  it("crawls that overlap in time, and crawls that kept no fingerprints, vouch for nothing", () => {
    const a = { ...fingerprinted(crawlOf("a", ALL, { start: 0 }), same), endedAt: 15 };
    const b = fingerprinted(crawlOf("b", ALL, { sizes: [7], start: 10 }), staleAfterFirst);
    const c = fingerprinted(crawlOf("c", ALL, { start: 20 }), same);
    expect(judgeSameness([a, b, c])).toEqual([]);
    expect(judgeSameness([crawlOf("x", ALL, { start: 0 }), b, crawlOf("y", ALL, { start: 20 })])).toEqual([]);
  });
});

describe("an entry's fingerprint", () => {
  it("changes with a field, a field of its objects, a list's length; not with the order of keys", () => {
    const order = { id: 1, amount: { total: 1000, vat: 0 }, state: "Processed", items: [{ id: 2 }] };
    const digest = entryDigest(order);
    expect(
      entryDigest({ items: [{ id: 2 }], state: "Processed", amount: { vat: 0, total: 1000 }, id: 1 }),
    ).toBe(digest);
    expect(entryDigest({ ...order, state: "Refunded" })).not.toBe(digest);
    expect(entryDigest({ ...order, amount: { total: 1001, vat: 0 } })).not.toBe(digest);
    expect(entryDigest({ ...order, items: [{ id: 2 }, { id: 3 }] })).not.toBe(digest);
  });
});
