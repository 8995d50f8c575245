import { describe, expect, it } from "vitest";
import { type CrawlLog, judgeDateOrder, readPage } from "../../contracts/index.js";
import { crawlOf } from "./crawls.js";

/** A crawl whose pages hold `dates` (ISO strings, or anything else as an entry's `date`), ids counting down. */
function dated(pages: readonly (readonly unknown[])[], start = 0): CrawlLog {
  let id = 1000;
  const read = pages.map((dates) => {
    const page = readPage({ data: dates.map((date) => ({ id: id--, date })), pagination: {} }, "data");
    if (!page.ok) throw new Error(page.why);
    return page;
  });
  const log = crawlOf("pageSize 3", [], { start, pages: read.map((p) => p.ids) });
  return { ...log, pages: log.pages.map((p, i) => ({ ...p, dates: read[i]?.dates ?? [] })) };
}

describe("the date-order judge: a whole crawl against the order it was asked for", () => {
  it("flags an entry newer than the one before it, across a page boundary, newest first", () => {
    const crawl = dated([
      ["2025-03-03T10:00:00+01:00", "2025-03-02T10:00:00+01:00"],
      ["2025-03-05T10:00:00+01:00", "2025-03-01T10:00:00+01:00"],
    ]);
    const order = judgeDateOrder(crawl, "desc");
    expect(order.broken?.previous).toMatchObject({ id: 999, page: { index: 1 } });
    expect(order.broken?.entry).toMatchObject({ id: 998, page: { index: 2 } });
    expect(order.dated).toBe(4);
  });

  it("flags a break inside one page, and an older entry after a newer one oldest first", () => {
    const within = judgeDateOrder(dated([["2025-03-01T10:00:00Z", "2025-03-02T10:00:00Z"]]), "desc");
    expect(within.broken?.entry.id).toBe(999);
    const ascending = dated([["2025-03-01T10:00:00Z", "2025-03-04T10:00:00Z"], ["2025-03-02T10:00:00Z"]]);
    expect(judgeDateOrder(ascending, "asc").broken).toMatchObject({
      previous: { id: 999 },
      entry: { id: 998 },
    });
    // The same crawl read newest first breaks at its second entry.
    expect(judgeDateOrder(ascending, "desc").broken?.entry.id).toBe(999);
  });

  it("reports the first break only, and counts every dated entry", () => {
    const crawl = dated([
      ["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "2025-01-01T00:00:00Z", "2025-01-03T00:00:00Z"],
    ]);
    const order = judgeDateOrder(crawl, "desc");
    expect(order.broken?.entry.id).toBe(999);
    expect(order.dated).toBe(4);
  });

  it("passes every legal variant: ties, offsets, fractions, undated entries, empty and unlogged crawls", () => {
    const legal: [string, CrawlLog, "desc" | "asc"][] = [
      [
        "equal dates in any order",
        dated([["2025-03-02T10:00:00Z", "2025-03-02T10:00:00Z"], ["2025-03-02T10:00:00Z"]]),
        "desc",
      ],
      // 10:30+01:00 is 09:30Z: older than 10:00Z, though its wall clock reads later.
      [
        "offsets that differ",
        dated([["2025-03-02T10:00:00Z", "2025-03-02T10:30:00+01:00", "2025-03-02T09:00:00-00:15"]]),
        "desc",
      ],
      [
        "seven fractional digits, as the service writes",
        dated([
          [
            "2024-11-29T20:57:39.3500901+01:00",
            "2024-11-29T20:57:39.3500899+01:00",
            "2024-11-29T20:57:39.1+01:00",
          ],
        ]),
        "desc",
      ],
      [
        // A date without its zone names no instant (the bad-dates shape): not judged.
        "entries without a date, or without a zone, between dated ones",
        dated([
          ["2025-03-03T00:00:00Z", undefined, "not a date", 17, "2025-03-09T00:00:00"],
          ["2025-03-01T00:00:00Z"],
        ]),
        "desc",
      ],
      [
        "oldest first",
        dated([["2025-03-01T00:00:00Z"], ["2025-03-01T00:00:00Z", "2025-03-09T00:00:00Z"]]),
        "asc",
      ],
      ["an empty listing", dated([[]]), "desc"],
      ["one entry", dated([["2025-03-01T00:00:00Z"]]), "asc"],
      [
        "a crawl that kept no pages",
        { ...dated([["2025-03-01T00:00:00Z", "2025-03-09T00:00:00Z"]]), pages: [], unlogged: true },
        "desc",
      ],
      ["a log kept without dates", crawlOf("pageSize 7", [5, 4, 3], { start: 0 }), "asc"],
    ];
    expect(
      legal.filter(([, crawl, direction]) => judgeDateOrder(crawl, direction).broken).map(([name]) => name),
    ).toEqual([]);
    expect(judgeDateOrder(legal[3]?.[1] as CrawlLog, "desc")).toMatchObject({ dated: 2, undated: 4 });
  });
});
