import { describe, expect, it } from "vitest";
import {
  type CrawlLog,
  entryForm,
  foreignEntries,
  judgeContainment,
  logsNaming,
  type Owner,
  readPage,
} from "../../contracts/index.js";
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

/** The organization's crawl read from real pages: the form's entries as orders, the other's as payments. */
function organizationCrawl(label: string, ids: readonly number[], start: number): CrawlLog {
  const entries = ids.map((id) =>
    FORM.includes(id)
      ? { id, formType: "Event", formSlug: "Gala" }
      : { id, order: { id, formType: "Membership", formSlug: "adhesion" } },
  );
  const read = readPage({ data: entries, pagination: {} }, "data");
  if (!read.ok) throw new Error(read.why);
  const log = crawlOf(label, ids, { sizes: [ids.length], start });
  return { ...log, pages: log.pages.map((p, i) => (i === 0 ? { ...p, forms: read.forms } : p)) };
}

describe("the judge the other way round: a form's listing against what its organization names as the form's", () => {
  it("names the entries the form's listing left out, once a crawl of the form made after the organization's lacks them", () => {
    const gone = [FORM[5] as number];
    const organization = [organizationCrawl("organization", ORGANIZATION, 0)];
    const named = logsNaming(organization, "event/gala");
    const before = crawlOf("form, default page size", without(FORM, gone), { start: -2 });
    expect(judgeContainment(named, [before])).toMatchObject({ omission: undefined, unconfirmed: gone });
    const after = crawlOf("form, after", without(FORM, gone), { sizes: [100], start: 2 });
    const judged = judgeContainment(named, [before, after]);
    expect(judged.omission).toMatchObject({ missing: gone, witness: { label: "form, after" } });
    expect(judged.formEntries).toBe(45);
  });

  it("reads the form from an order or from the order of an item or payment, in any case, and ignores the rest", () => {
    expect(
      [
        { formType: "Event", formSlug: "Gala" },
        { order: { formType: "event", formSlug: "GALA" } },
        { formType: "Event" },
        { order: null },
        "not an entry",
      ].map(entryForm),
    ).toEqual(["event/gala", "event/gala", undefined, undefined, undefined]);
    // The other form's entries, and entries naming none, are no part of the form's: nothing missing.
    const organization = [organizationCrawl("organization", ORGANIZATION, 0)];
    const judged = judgeContainment(logsNaming(organization, "EVENT/gala"), [
      crawlOf("form, after", FORM, { sizes: [100], start: 2 }),
    ]);
    expect([judged.omission, judged.unconfirmed, judged.formEntries]).toEqual([undefined, [], 45]);
    expect(judgeContainment(logsNaming(organization, "Event/other"), []).formEntries).toBe(0);
  });
});

/** A crawl whose pages name, entry by entry, the owners `names` gives (undefined: none named). */
function namingCrawl(
  label: string,
  ids: readonly number[],
  names: (id: number) => string | undefined,
  owner: Owner = "form",
): CrawlLog {
  const log = crawlOf(label, ids, { sizes: [20], start: 0 });
  const field = owner === "form" ? "forms" : "organizations";
  return { ...log, pages: log.pages.map((p) => ({ ...p, [field]: p.ids.map((id) => names(Number(id))) })) };
}

describe("a listing serves no entry of another form, or of another organization", () => {
  it("names the entries that name another form, the form the first names, and the page that served it", () => {
    const leaked = [FORM[25] as number, FORM[40] as number];
    const crawl = namingCrawl("form, default page size", FORM, (id) =>
      leaked.includes(id) ? "membership/adhesion" : "event/gala",
    );
    const found = foreignEntries(
      [namingCrawl("form, pageSize 7", FORM, () => "event/gala"), crawl],
      "form",
      "Event/Gala",
    );
    expect(found).toMatchObject({ ids: leaked, names: "membership/adhesion", crawl: { label: crawl.label } });
    expect(found?.page.index).toBe(2);
  });

  it("names the entries that name another organization, read apart from the forms", () => {
    const leaked = FORM[3] as number;
    const crawl = namingCrawl(
      "organization",
      FORM,
      (id) => (id === leaked ? "club-voisin" : "club"),
      "organization",
    );
    // The forms it names are no part of it, nor the organizations of a form judge.
    expect(foreignEntries([crawl], "form", "event/gala")).toBeUndefined();
    expect(foreignEntries([crawl], "organization", "Club")).toMatchObject({
      ids: [leaked],
      names: "club-voisin",
    });
  });

  it("passes every legal variant: the owner named in any case, entries naming none, and crawls that kept none", () => {
    for (const owner of ["form", "organization"] as const) {
      const own = owner === "form" ? "event/gala" : "club";
      const crawls = [
        namingCrawl("names in the asked case", FORM, () => own, owner),
        namingCrawl("some name none", FORM, (id) => (id % 2 === 0 ? own : undefined), owner),
        crawlOf("kept none", FORM, { start: 1 }),
      ];
      expect(foreignEntries(crawls, owner, own.toUpperCase())).toBeUndefined();
      expect(foreignEntries([], owner, own)).toBeUndefined();
    }
  });
});
