import { describe, expect, it } from "vitest";
import { judgeContainment } from "../../contracts/index.js";
import { crawlOf, desc } from "./crawls.js";

const FORM = desc(1000, 45);
/** The organization's listing: the form's entries and another form's, newest first. */
const ORGANIZATION = [...desc(2000, 30), ...FORM];
const without = (ids: readonly number[], gone: readonly number[]) => ids.filter((id) => !gone.includes(id));

describe("the judge of a form's listing against its organization's", () => {
  it("names the entries the organization's listing left out, the form's page that served the first, and the later crawl that lacks it", () => {
    const gone = [FORM[3] as number, FORM[30] as number];
    const judged = judgeContainment(
      [
        crawlOf("form, default page size", FORM, { start: 0 }),
        crawlOf("form, pageSize 7", FORM, { sizes: [7], start: 2 }),
      ],
      [
        crawlOf("organization, default page size", without(ORGANIZATION, gone), { start: 4 }),
        crawlOf("organization, pageSize 100", without(ORGANIZATION, gone), { sizes: [100], start: 6 }),
      ],
    );
    expect(judged.omission?.missing).toEqual(gone);
    expect(judged.omission?.formCrawl.label).toBe("form, default page size");
    expect(judged.omission?.page.index).toBe(1);
    expect(judged.omission?.witness.label).toBe("organization, default page size");
    expect(judged.unconfirmed).toEqual([]);
    expect([judged.formEntries, judged.organizationEntries]).toEqual([45, 73]);
  });

  it("holds back an entry the organization's crawls lack when they all started before the form's crawl ended, until a later crawl confirms or clears it", () => {
    const fresh = FORM[0] as number; // the form's newest entry, sold while the listings were crawled
    const before = crawlOf("organization, before", without(ORGANIZATION, [fresh]), { start: 0 });
    const form = [crawlOf("form", FORM, { start: 2 })];
    const early = judgeContainment(form, [before]);
    expect(early.omission).toBeUndefined();
    expect(early.unconfirmed).toEqual([fresh]);
    const cleared = judgeContainment(form, [
      before,
      crawlOf("organization, after", ORGANIZATION, { start: 5 }),
    ]);
    expect([cleared.omission, cleared.unconfirmed]).toEqual([undefined, []]);
    const confirmed = judgeContainment(form, [
      before,
      crawlOf("organization, after", without(ORGANIZATION, [fresh]), { start: 5 }),
    ]);
    expect(confirmed.omission?.missing).toEqual([fresh]);
    expect(confirmed.omission?.witness.label).toBe("organization, after");
  });

  it("passes every legal variant: other page sizes, short pages, an end without a token, entries the organization gained, and crawls too long to keep", () => {
    const gained = [...desc(3000, 5), ...ORGANIZATION];
    const judged = judgeContainment(
      [
        crawlOf("form, pages of 1, 3, then 20", FORM, { sizes: [1, 3, 20], start: 0 }),
        crawlOf("form, no token at the end", FORM, { sizes: [7], start: 1, end: "no-token" }),
        { ...crawlOf("form, unlogged", [], { start: 2 }), unlogged: true },
      ],
      [
        crawlOf("organization, pageSize 100", gained, { sizes: [100], start: 3 }),
        { ...crawlOf("organization, unlogged", [], { start: 4 }), unlogged: true },
      ],
    );
    expect([judged.omission, judged.unconfirmed]).toEqual([undefined, []]);
    expect([judged.formEntries, judged.organizationEntries]).toEqual([45, 80]);
  });
});
