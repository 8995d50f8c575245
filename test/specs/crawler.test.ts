import { describe, expect, it } from "vitest";
import { stopRule } from "../../specs/runner/crawler.js";
import { listingCrawls } from "./support/listing-server.js";

const listings = listingCrawls();
const crawlFixture = listings.crawl;

describe("the crawler", () => {
  it("starts without a token and sends each token back byte for byte, encoded once", async () => {
    const result = await crawlFixture("clean", {}, { token: "a+b/c=d%e&f g", entries: 25, pageSize: 10 });
    expect(result.stop.kind).toBe("empty-page");
    expect(result.entries).toBe(25);
    expect(result.tokens).toEqual({
      sent: 3,
      unusual: 3,
      first: "a+b/c=d%e&f g10",
      final: "a+b/c=d%e&f g25",
    });
    expect(listings.queries()[0]).toBe("");
    expect(listings.queries()[1]).toBe(`continuationToken=${encodeURIComponent("a+b/c=d%e&f g10")}`);
    expect(listings.queries()[1]).toBe("continuationToken=a%2Bb%2Fc%3Dd%25e%26f%20g10");
  });

  it("stops at once when a non-empty page answers the token it was asked with", async () => {
    const result = await crawlFixture("same-token-forever");
    expect(result.stop.kind).toBe("never-ends");
    expect(result.pages).toBe(2);
    expect(stopRule(result.stop, result.route)).toBe("pagination.end-is-empty-array");
  });

  it("cuts a listing that never ends at the page bound, keeping only ids", async () => {
    const result = await crawlFixture("endless", { maxPages: 20 });
    expect(result.stop.kind).toBe("never-ends");
    expect(result.pages).toBe(20);
    expect(result.entries).toBe(200);
  });

  it("bounds the pages by the known number of entries", async () => {
    const result = await crawlFixture("endless", { knownEntries: 25 });
    expect(result.stop.kind).toBe("never-ends");
    expect(result.pages).toBe(27);
  });

  it("cuts a listing at its time limit", async () => {
    let clock = 0;
    const result = await crawlFixture("endless", {
      timeLimitMs: 1_000,
      now: () => {
        clock += 300;
        return clock;
      },
    });
    expect(result.stop.kind).toBe("never-ends");
    expect(result.stop.kind === "never-ends" && result.stop.reason).toMatch(/after 1 s/);
  });

  it("tells a token that leads back to the first page", async () => {
    const result = await crawlFixture("ignore-token");
    expect(result.stop.kind).toBe("token-ignored");
    expect(stopRule(result.stop, result.route)).toBe("pagination.token-echoed");
  });

  it("tells a result array that is not a list", async () => {
    const result = await crawlFixture("null-array");
    expect(result.stop).toMatchObject({ kind: "not-a-list", reason: '"data" is null, not a list' });
  });

  it("ends on an early empty page as on any empty page, and logs each page for the crawl judge", async () => {
    const result = await crawlFixture("early-empty", { knownEntries: 25 });
    expect(result.stop.kind).toBe("empty-page");
    expect(stopRule(result.stop, result.route)).toBeUndefined();
    expect(result.log.end).toBe("empty-page");
    expect(result.log.pages.map((p) => p.ids.length).at(-1)).toBe(0);
    expect(result.log.pages[1]?.sentToken).toBe(result.log.pages[0]?.token);
    expect(result.log.pages[1]?.url).toContain(
      `continuationToken=${encodeURIComponent(result.log.pages[0]?.token ?? "")}`,
    );
  });

  it("calls back after each page for progress", async () => {
    const seen: number[] = [];
    await crawlFixture("clean", { onPage: (pages) => seen.push(pages) });
    expect(seen).toEqual([1, 2, 3]);
  });
});
