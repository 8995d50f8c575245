import { describe, expect, it } from "vitest";
import { type CrawlLog, judgeWindow, readPage, windowOf, windowSpan } from "../../contracts/index.js";
import { crawlOf } from "./crawls.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1);
/** Ids 100 … 91, one a day, newest first. */
const LISTED = Array.from({ length: 10 }, (_, i) => ({
  id: 100 - i,
  date: new Date(T0 - i * DAY).toISOString(),
}));

/** A crawl of `entries` in pages of `size`, read as verify reads pages. */
function crawl(entries: readonly { id: number; date?: unknown }[], size = 4): CrawlLog {
  const pages: (typeof entries)[] = [];
  for (let at = 0; at < entries.length; at += size) pages.push(entries.slice(at, at + size));
  const read = pages.map((page) => {
    const parsed = readPage({ data: page, pagination: {} }, "data");
    if (!parsed.ok) throw new Error(parsed.why);
    return parsed;
  });
  const log = crawlOf("window", [], { start: 0, pages: read.map((p) => p.ids) });
  return { ...log, pages: log.pages.map((p, i) => ({ ...p, dates: read[i]?.dates ?? [] })) };
}

const window = windowOf(crawl(LISTED)) as NonNullable<ReturnType<typeof windowOf>>;
const past = windowOf(crawl(LISTED), 5, "past-entries") as NonNullable<ReturnType<typeof windowOf>>;
const between = (from: number, to: number) =>
  LISTED.filter((e) => Date.parse(e.date) >= from && Date.parse(e.date) < to);

describe("the date-window judge", () => {
  it("puts a window's ends on the dates of the 6th and the 1st entries, and expects the 2nd to the 6th", () => {
    expect(window).toEqual({
      from: T0 - 5 * DAY,
      to: T0,
      expected: [99, 98, 97, 96, 95],
      edges: "on-entries",
      edge: 95,
    });
  });

  it("puts the second window's ends 1 ms past the 7th and the 2nd entries, holding the same five", () => {
    expect(past).toEqual({
      from: T0 - 6 * DAY + 1,
      to: T0 - DAY + 1,
      expected: [99, 98, 97, 96, 95],
      edges: "past-entries",
      edge: 99,
    });
  });

  it("puts the third window's from on the 6th entry and asks no to: it holds the 1st to the 6th", () => {
    const since = windowOf(crawl(LISTED), 5, "since-entry");
    expect(since).toEqual({
      from: T0 - 5 * DAY,
      to: Number.POSITIVE_INFINITY,
      expected: [100, 99, 98, 97, 96, 95],
      edges: "since-entry",
      edge: 95,
    });
    if (!since) return;
    expect(windowSpan(since)).toBe(`from=${new Date(T0 - 5 * DAY).toISOString()} (included), no to`);
    // Entries newer than the 1st (added since) are in it; one before from, or one of them lost, is not.
    const newer = [{ id: 101, date: new Date(T0 + DAY).toISOString() }, ...LISTED.slice(0, 6)];
    expect(judgeWindow(since, crawl(newer))).toEqual({ missing: [], outside: [] });
    expect(judgeWindow(since, crawl(LISTED.slice(0, 7))).outside.map((e) => e.id)).toEqual([94]);
    expect(judgeWindow(since, crawl(LISTED.slice(1, 5))).missing).toEqual([100, 95]);
  });

  it("puts the fourth window's from 1 ms after the newest entry and asks no to: it holds nothing", () => {
    const nothing = windowOf(crawl(LISTED), 5, "nothing-new");
    expect(nothing).toEqual({
      from: T0 + 1,
      to: Number.POSITIVE_INFINITY,
      expected: [],
      edges: "nothing-new",
      edge: undefined,
    });
    if (!nothing) return;
    // An entry added since is in it; the newest listed one, 1 ms before from, is not.
    const added = [{ id: 101, date: new Date(T0 + 2).toISOString() }];
    expect(judgeWindow(nothing, crawl(added))).toEqual({ missing: [], outside: [] });
    expect(judgeWindow(nothing, crawl([])).missing).toEqual([]);
    expect(judgeWindow(nothing, crawl(LISTED.slice(0, 2))).outside.map((e) => e.id)).toEqual([100, 99]);
    // A crawl without a dated entry at its head offers none.
    expect(windowOf(crawl([{ id: 1 }]), 5, "nothing-new")).toBeUndefined();
  });

  it("flags, in the second window, an end read early: cut to the second, an offset misread", () => {
    // Dates with a fraction of a second: 1.5 s apart, the window's ends 1 ms past two of them.
    const fine = LISTED.map((e, i) => ({ id: e.id, date: new Date(T0 - i * 1_500 + 250).toISOString() }));
    const w = windowOf(crawl(fine), 5, "past-entries") as NonNullable<ReturnType<typeof windowOf>>;
    const within = (from: number, to: number) =>
      fine.filter((e) => Date.parse(e.date) >= from && Date.parse(e.date) < to);
    const second = (ms: number) => Math.floor(ms / 1000) * 1000;
    expect(judgeWindow(w, crawl(within(second(w.from), second(w.to))))).toMatchObject({ missing: [99] });
    const early = judgeWindow(w, crawl(within(w.from - 3_600_000, w.to - 3_600_000)));
    expect(early.missing).toEqual(w.expected);
    expect(judgeWindow(w, crawl(within(w.from - 2, w.to))).outside.map((e) => e.id)).toEqual([94]);
    expect(judgeWindow(w, crawl(within(w.from, w.to)))).toEqual({ missing: [], outside: [] });
  });

  it("flags a from taken as exclusive, a to taken as inclusive, and a window ignored", () => {
    const fromExclusive = judgeWindow(window, crawl(between(window.from + 1, window.to)));
    expect(fromExclusive).toEqual({ missing: [95], outside: [] });
    const toInclusive = judgeWindow(window, crawl(between(window.from, window.to + 1)));
    expect(toInclusive.missing).toEqual([]);
    expect(toInclusive.outside.map((e) => e.id)).toEqual([100]);
    const ignored = judgeWindow(window, crawl(LISTED));
    expect(ignored.outside.map((e) => e.id)).toEqual([100, 94, 93, 92, 91]);
    expect(ignored.outside[1]?.page.index).toBe(2);
  });

  it("passes every legal variant: other offsets, seven fractional digits, pages of any size, undated entries", () => {
    const reoffset = between(window.from, window.to).map((e) => ({
      id: e.id,
      date: new Date(Date.parse(e.date) + 2 * 3_600_000).toISOString().replace("Z", "0001+02:00"),
    }));
    for (const served of [
      crawl(between(window.from, window.to)),
      crawl(between(window.from, window.to), 1),
      crawl(reoffset, 100),
      crawl([...between(window.from, window.to), { id: 7 }, { id: 8, date: "not a date" }]),
    ])
      expect(judgeWindow(window, served)).toEqual({ missing: [], outside: [] });
  });

  it("sets no window over too few dated entries, over shared milliseconds or dates out of order", () => {
    expect(windowOf(crawl(LISTED.slice(0, 2)))).toBeUndefined();
    expect(windowOf(crawl(LISTED.slice(0, 3)))).toEqual({
      from: T0 - DAY,
      to: T0,
      expected: [99],
      edges: "on-entries",
      edge: 99,
    });
    expect(windowOf(crawl(LISTED.slice(0, 3)), 5, "past-entries")).toBeUndefined();
    expect(windowOf(crawl(LISTED.slice(0, 4)), 5, "past-entries")).toMatchObject({ expected: [99] });
    const tied = [LISTED[0], { id: 99, date: LISTED[0]?.date }, ...LISTED.slice(2)] as typeof LISTED;
    expect(windowOf(crawl(tied))).toBeUndefined();
    expect(windowOf(crawl([...LISTED].reverse()))).toBeUndefined();
    expect(windowOf(crawl(LISTED.map((e) => ({ id: e.id, date: e.date.replace("Z", "") }))))).toBeUndefined();
  });
});
