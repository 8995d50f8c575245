import { describe, expect, it } from "vitest";
import {
  type CrawlLog,
  entryKind,
  heldBy,
  judgeCompleteness,
  namedOnPage,
  namedWitness,
  readPage,
  servedKinds,
} from "../../contracts/index.js";
import { crawlOf, desc } from "./crawls.js";

const ALL = desc(1000, 30);
const DAY = Date.parse("2025-03-01T10:00:00+01:00");
const dateOfId = (id: number) => new Date(DAY + id * 1000).toISOString();

/** A crawl of another listing whose entries each name one entry of the judged one (`order.id`). */
function naming(label: string, named: readonly number[], start: number, kinds?: readonly string[]): CrawlLog {
  const entries = named.map((id, i) => ({
    id: 5000 + i,
    date: dateOfId(id),
    order: { id, ...(kinds ? { state: kinds[i % kinds.length] } : {}) },
  }));
  const page = readPage({ data: entries, pagination: {} }, "data", undefined, {
    names: [{ route: "orders", at: "order", ...(kinds ? { filteredBy: ["state"] } : {}) }],
  });
  if (!page.ok) throw new Error(page.why);
  return {
    label,
    pageSize: 100,
    startedAt: start,
    endedAt: start + 1,
    end: "empty-page",
    pages: [
      { index: 1, url: "http://127.0.0.1/items", sentToken: undefined, status: 200, ...page, token: "t1" },
      { index: 2, url: "http://127.0.0.1/items?t=t1", sentToken: "t1", status: 200, ids: [], token: "t1" },
    ],
  };
}

/** Crawls of the judged listing with every entry dated as `naming` dates it. */
const dated = (label: string, ids: readonly number[], start: number, sizes = [7]) => {
  const log = crawlOf(label, ids, { sizes, start });
  return {
    ...log,
    pages: log.pages.map((p) => ({ ...p, dates: p.ids.map((id) => Date.parse(dateOfId(Number(id)))) })),
  };
};

describe("what an entry names of other listings", () => {
  it("reads a named object or list of objects, each with its own date or the naming entry's", () => {
    const named = namedOnPage(
      [
        {
          date: "2025-01-02T10:00:00Z",
          order: { id: 7, date: "2025-01-01T10:00:00Z" },
          payments: [{ id: 8 }, { id: 9, state: "Refunded" }],
        },
        { order: { id: "not an id" }, payments: "none" },
      ],
      [
        { route: "orders", at: "order" },
        { route: "payments", at: "payments", filteredBy: ["state"] },
      ],
    );
    expect(named.orders).toEqual({ ids: [7], dates: [Date.parse("2025-01-01T10:00:00Z")] });
    expect(named.payments).toEqual({
      ids: [8, 9],
      dates: [Date.parse("2025-01-02T10:00:00Z"), Date.parse("2025-01-02T10:00:00Z")],
      kinds: [undefined, "Refunded"],
    });
    expect(entryKind({ state: "Processed", type: "Donation" }, ["state", "type"])).toBe("Processed/Donation");
    expect(entryKind({ state: "Processed" }, ["state", "type"])).toBeUndefined();
  });

  it("reads what an entry holds under other ids than its own, and what a page read through `holds` keeps", () => {
    const entries = [
      { id: 1, items: [{ id: 1 }, { id: 31 }] },
      { id: 2, items: { id: 32 } },
      { id: "no id", items: [{ id: 33 }] },
      { id: 4, items: [{ id: "x" }, { id: 4.5 }] },
    ];
    expect(heldBy(entries, [1, 2, undefined, 4], "items")).toEqual({ ids: [31, 32], by: [1, 2] });
    const page = readPage({ data: entries }, "data", undefined, { holds: "items" });
    expect(page.ok && page.held).toEqual({ ids: [31, 32], by: [1, 2] });
    expect(readPage({ data: entries }, "data").ok && "held" in readPage({ data: entries }, "data")).toBe(
      false,
    );
  });
});

describe("the crawl judge with another listing's names as witness", () => {
  const lost = ALL.filter((id) => id % 7 === 0);
  const served = ALL.filter((id) => !lost.includes(id));

  it("flags entries a listing leaves out of every crawl, alike at every size, that another listing names", () => {
    const before = namedWitness(naming("pageSize 100", ALL, 0), "orders", "v5.form-items");
    const crawls = [dated("pageSize 7", served, 10), dated("pageSize 20", served, 20, [20])];
    const after = namedWitness(naming("pageSize 100 (again)", ALL, 30), "orders", "v5.form-items");
    const judged = judgeCompleteness(crawls, [before, after]);
    expect(judged.losses.map((l) => [l.rule, l.crawl.label, l.missing])).toEqual([
      ["pagination.complete", "pageSize 7", lost],
      ["pagination.complete", "pageSize 20", lost],
    ]);
    expect(judged.losses[0]?.reason).toContain(
      "the entries of v5.form-items (pageSize 100 (again)) name them, and they were there before pageSize 7 started",
    );
    expect(judged.losses[0]?.reason).toMatch(/Entry 994 vanished inside page 1, between 995 and 993/);
  });

  it("takes entries only a naming crawl after the listing's crawls holds as new, not lost", () => {
    const grown = [1001, 1002];
    const judged = judgeCompleteness(
      [dated("pageSize 7", ALL, 10)],
      [
        namedWitness(naming("pageSize 100", ALL, 0), "orders", "v5.form-items"),
        namedWitness(naming("again", [...grown, ...ALL], 30), "orders", "v5.form-items"),
      ],
    );
    expect(judged.losses).toEqual([]);
    expect(judged.suspects.map((s) => s.missing)).toEqual([grown]);
  });

  it("lets a named entry vouch only for a kind the listing served, as a listing may filter by default", () => {
    const kinds = ["Authorized", "Refunded"];
    // The listing serves no Refunded entry at all: its default leaves them out, which is legal.
    const authorized = ALL.filter((_, i) => i % 2 === 0);
    const own = dated("pageSize 7", authorized, 10);
    const logs = [{ ...own, pages: own.pages.map((p) => ({ ...p, kinds: p.ids.map(() => "Authorized") })) }];
    const witness = (label: string, start: number) =>
      namedWitness(naming(label, ALL, start, kinds), "orders", "v5.form-payments", servedKinds(logs));
    expect(servedKinds(logs)).toEqual(new Set(["Authorized"]));
    expect(judgeCompleteness(logs, [witness("a", 0), witness("b", 30)]).losses).toEqual([]);
    // A named entry of unknown kind vouches for nothing either.
    const unknown = namedWitness(naming("c", ALL, 0), "orders", "v5.form-payments", new Set(["Authorized"]));
    expect(unknown.pages.flatMap((p) => p.ids)).toEqual([]);
    // Once the listing is seen to serve a kind, it must serve every entry of that kind that is named.
    const lostAuthorized = authorized.slice(3, 4);
    const short = dated(
      "pageSize 7",
      authorized.filter((id) => !lostAuthorized.includes(id)),
      10,
    );
    const shortLogs = [
      { ...short, pages: short.pages.map((p) => ({ ...p, kinds: p.ids.map(() => "Authorized") })) },
    ];
    const judged = judgeCompleteness(shortLogs, [
      namedWitness(naming("a", ALL, 0, kinds), "orders", "v5.form-payments", servedKinds(shortLogs)),
      namedWitness(naming("b", ALL, 30, kinds), "orders", "v5.form-payments", servedKinds(shortLogs)),
    ]);
    expect(judged.losses.map((l) => l.missing)).toEqual([lostAuthorized]);
  });
});
