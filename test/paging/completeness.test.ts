import { describe, expect, it } from "vitest";
import { judgeCompleteness } from "../../contracts/index.js";
import { crawlOf, desc } from "./crawls.js";

const ALL = desc(1000, 65);
const without = (ids: readonly number[], gone: readonly number[]) => ids.filter((id) => !gone.includes(id));

describe("the crawl judge flags entries a crawl lost", () => {
  it("names an entry lost at a page boundary, the crawl that lost it and the two pages around the gap", () => {
    const lost = ALL[7] as number; // the first entry of the second page at pageSize 7
    const judged = judgeCompleteness([
      crawlOf("the default page size", ALL, { sizes: [20], start: 0 }),
      crawlOf("pageSize 7", without(ALL, [lost]), { sizes: [7], start: 10 }),
      crawlOf("pageSize 100", ALL, { sizes: [100], start: 20 }),
    ]);
    expect(judged.losses).toHaveLength(1);
    const [loss] = judged.losses;
    expect(loss?.rule).toBe("pagination.complete");
    expect(loss?.crawl.label).toBe("pageSize 7");
    expect(loss?.missing).toEqual([lost]);
    expect(loss?.before).toMatchObject({ id: ALL[6], page: { index: 1 } });
    expect(loss?.after).toMatchObject({ id: ALL[8], page: { index: 2 } });
    expect(loss?.offending?.index).toBe(2);
    expect(loss?.reason).toMatch(/between page 1 \(ending with 994\) and page 2 \(starting with 992\)/);
  });

  it("blames an empty page before the end on its own rule", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { start: 0 }),
      crawlOf("b", ALL.slice(0, 14), { sizes: [7], start: 10 }),
      crawlOf("c", ALL, { sizes: [100], start: 20 }),
    ]);
    expect(judged.losses.map((l) => [l.rule, l.crawl.label, l.missing.length])).toEqual([
      ["pagination.empty-page-only-at-end", "b", 51],
    ]);
    expect(judged.losses[0]?.offending?.index).toBe(3);
  });

  it("blames a non-empty page without a token before the end on its own rule", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { start: 0 }),
      crawlOf("b", ALL.slice(0, 14), { sizes: [7], start: 10, end: "no-token" }),
      crawlOf("c", ALL, { sizes: [100], start: 20 }),
    ]);
    expect(judged.losses.map((l) => [l.rule, l.missing.length])).toEqual([
      ["pagination.token-until-end", 51],
    ]);
  });

  it("blames a crawl that loses entries between pages and at its end on the one rule", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { start: 0 }),
      crawlOf("b", without(ALL, [ALL[7] as number, ALL[64] as number]), { sizes: [7], start: 10 }),
      crawlOf("c", ALL, { sizes: [100], start: 20 }),
    ]);
    expect(judged.losses.map((l) => [l.rule, l.missing])).toEqual([
      ["pagination.complete", [ALL[7], ALL[64]]],
    ]);
  });

  it("takes a loss no earlier crawl vouches for as a suspect, and confirms it with a fresh crawl", () => {
    const lost = ALL[20] as number;
    const first = crawlOf("a", without(ALL, [lost]), { start: 0 });
    const witness = crawlOf("c", ALL, { sizes: [100], start: 20 });
    const judged = judgeCompleteness([first, witness]);
    expect(judged.losses).toEqual([]);
    expect(judged.suspects.map((s) => [s.crawl.label, s.missing])).toEqual([["a", [lost]]]);
    const again = crawlOf("a (again)", without(ALL, [lost]), { start: 30 });
    const last = crawlOf("witness", ALL, { sizes: [100], start: 40 });
    const confirmed = judgeCompleteness([first, witness, again, last]);
    expect(confirmed.losses.map((l) => [l.crawl.label, l.missing])).toEqual([["a (again)", [lost]]]);
  });

  it("leaves out crawls cut by another rule", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { start: 0 }),
      crawlOf("b", ALL.slice(0, 3), { start: 10, end: "cut" }),
      crawlOf("c", ALL, { start: 20 }),
    ]);
    expect(judged).toMatchObject({ losses: [], suspects: [], entries: 65 });
  });

  it("catches a listing that loses the last entry of every crawl once one crawl runs oldest first", () => {
    const [newest, oldest] = [ALL[0] as number, ALL.at(-1) as number];
    const ascending = (label: string, ids: readonly number[], start: number) => ({
      ...crawlOf(label, [...ids].reverse(), { sizes: [100], start }),
      ascending: true,
    });
    // Newest first, every crawl lacks the oldest entry; oldest first, the newest.
    const alike = [20, 7, 100].map((size, i) =>
      crawlOf(`pageSize ${size}`, without(ALL, [oldest]), { sizes: [size], start: i * 10 }),
    );
    expect(judgeCompleteness(alike).losses).toEqual([]);
    const judged = judgeCompleteness([
      ...alike,
      ascending("sortOrder Asc", without(ALL, [newest]), 30),
      crawlOf("pageSize 100 (again)", without(ALL, [oldest]), { sizes: [100], start: 40 }),
    ]);
    const loss = judged.losses.find((l) => l.crawl.label === "sortOrder Asc");
    expect(loss).toMatchObject({ missing: [newest], rule: "pagination.empty-page-only-at-end" });
    // Read in the losing crawl's direction: the newest entry comes after its last, not before its first.
    expect(loss?.before?.id).toBe(ALL[1]);
    expect(loss?.after).toBeUndefined();
  });
});

describe("a date window's crawl as a witness", () => {
  // The window holds the 2nd to the 6th newest entries; its crawls vouch for them, and are not judged.
  const WINDOW = ALL.slice(1, 6);
  const lost = ALL[3] as number;
  const windowAt = (label: string, start: number) =>
    crawlOf(label, WINDOW, { sizes: [100], start, dated: true });

  it("flags a loss only the window shows, vouched for before and after, and places the entry by its date", () => {
    const a = crawlOf("the default page size", without(ALL, [lost]), { start: 0, dated: true });
    const again = crawlOf("the default page size (again)", without(ALL, [lost]), { start: 20, dated: true });
    const judged = judgeCompleteness(
      [a, again],
      [windowAt("the window", 10), windowAt("the window (again)", 30)],
    );
    expect(judged.losses.map((l) => [l.rule, l.crawl.label, l.missing, l.witness.label])).toEqual([
      ["pagination.complete", "the default page size (again)", [lost], "the window (again)"],
    ]);
    // Placed among the losing crawl's own entries by its date, not at the window's edges.
    expect(judged.losses[0]).toMatchObject({ before: { id: ALL[2] }, after: { id: ALL[4] } });
    expect(judged.suspects.map((s) => [s.crawl.label, s.missing])).toEqual([
      ["the default page size", [lost]],
    ]);
  });

  it("does not judge the window's own crawl, which holds only its part", () => {
    const whole = [0, 20].map((start) => crawlOf(`${start}`, ALL, { start, dated: true }));
    expect(judgeCompleteness(whole, [windowAt("the window", 10)])).toMatchObject({
      losses: [],
      suspects: [],
      entries: 65,
    });
  });

  it("takes an entry the window shows and a later crawl of the whole holds for a new one", () => {
    const a = crawlOf("a", without(ALL, [lost]), { start: 0, dated: true });
    const b = crawlOf("b", ALL, { start: 20, dated: true });
    const judged = judgeCompleteness([a, b], [windowAt("the window", 10)]);
    expect(judged.losses).toEqual([]);
    expect(judged.suspects.map((s) => s.crawl.label)).toEqual(["a"]);
  });

  it("takes an entry no window held after the losing crawl for one that may have gone", () => {
    const a = crawlOf("a", ALL, { start: 0, dated: true });
    const b = crawlOf("b", without(ALL, [lost]), { start: 20, dated: true });
    const judged = judgeCompleteness([a, b], [windowAt("the window", 10)]);
    expect(judged.losses).toEqual([]);
    expect(judged.suspects.map((s) => [s.crawl.label, s.missing])).toEqual([["b", [lost]]]);
  });
});

describe("the crawl judge passes every legal variant", () => {
  it("the same entries in pages of any size, uneven pages, no token on the last page, a token on the empty one", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { sizes: [20], start: 0 }),
      crawlOf("b", ALL, { sizes: [7, 3, 11, 1], start: 10, end: "no-token" }),
      crawlOf("c", ALL, { sizes: [100], start: 20 }),
      crawlOf("d", ALL, { pages: [ALL.slice(0, 5), [], ALL.slice(5)], start: 30, end: "no-token" }),
    ]);
    // "d" has an empty page mid-way: the judge only sees what a client collects, and d collected all.
    expect(judged).toMatchObject({ losses: [], suspects: [], entries: 65 });
  });

  it("a listing that grows at its head between crawls and while they run", () => {
    const crawls = [
      crawlOf("a", ALL, { start: 0 }),
      crawlOf("b", [1003, 1002, 1001, ...ALL], { sizes: [7], start: 10 }),
      // Entries 1005 and 1004 came while c ran, after its first page: c never saw them.
      crawlOf("c", [1003, 1002, 1001, ...ALL], { sizes: [100], start: 20 }),
      crawlOf("d", [1005, 1004, 1003, 1002, 1001, ...ALL], { sizes: [7], start: 30 }),
    ];
    const judged = judgeCompleteness(crawls);
    expect(judged.losses).toEqual([]);
    expect(judged.entries).toBe(70);
    expect(judged.suspects.map((s) => s.crawl.label)).toEqual(["a", "b", "c"]);
  });

  it("a listing that grows at its tail (oldest first) while it is crawled", () => {
    const asc = [...ALL].reverse();
    const judged = judgeCompleteness([
      crawlOf("a", asc, { start: 0 }),
      crawlOf("b", [...asc, 1001], { sizes: [7], start: 10 }),
      crawlOf("c", [...asc, 1001, 1002], { sizes: [100], start: 20 }),
    ]);
    expect(judged.losses).toEqual([]);
  });

  it("the same entries crawled newest first and oldest first", () => {
    const judged = judgeCompleteness([
      crawlOf("a", ALL, { start: 0 }),
      { ...crawlOf("b", [...ALL].reverse(), { sizes: [100], start: 10 }), ascending: true },
      crawlOf("c", ALL, { sizes: [7], start: 20 }),
    ]);
    expect(judged).toMatchObject({ losses: [], suspects: [], entries: 65 });
  });

  it("crawls that overlap in time vouch for nothing", () => {
    const lost = ALL[3] as number;
    const a = { ...crawlOf("a", ALL, { start: 0 }), endedAt: 15 };
    const b = crawlOf("b", without(ALL, [lost]), { start: 10 });
    const c = crawlOf("c", ALL, { start: 20 });
    expect(judgeCompleteness([a, b, c]).losses).toEqual([]);
  });
});
