import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

const sizeOf = (query: URLSearchParams) => Number(query.get("pageSize") ?? 20);
/** A copy of a listing entry whose amount (a number) is a cent more. */
const centMore = (entry: unknown) => {
  const copy = { ...(entry as Record<string, unknown>) };
  if (typeof copy.amount === "number") copy.amount += 1;
  return copy;
};

describe("verify judges every crawl it makes of a listing, not only the default one", () => {
  it("flags entries repeated only at one page size, on the duplicates rule too", async () => {
    // At pageSize 7 each later page opens with the entry the page before it in the same crawl ended on,
    // and so loses its own last entry: the default crawl is clean, so before, only the loss was reported.
    // (The page before is the crawl's own: verify crawls several listings at once, and a provider that
    // opened a page with another crawl's entry would break their order and containment too.)
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries, _url, _served, pageBefore) =>
        sizeOf(query) === 7 && entries.length > 0 && pageBefore !== undefined
          ? [pageBefore.at(-1), ...entries.slice(0, -1)]
          : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/empty-page-only-at-end", "pagination/no-duplicates"]);
    expect(found.find((p) => p.startsWith("pagination/no-duplicates"))).toMatch(
      /came back twice in \d+ pages of the crawl at pageSize 7/,
    );
  });

  it("flags a provider that drops the last entry of every crawl, once counts are gone and without provider states", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      // The last page of a crawl is the one short of its page size: its last entry never comes.
      through: rewriting((query, entries) =>
        entries.length > 0 && entries.length < sizeOf(query) ? entries.slice(0, -1) : entries,
      ),
    });
    const found = problems(report);
    // The crawls of a date window lose their last entry too: the loss the whole listing's crawls show
    // explains it, so pagination/date-window skips rather than blaming the same fault twice.
    expect(checksIn(found)).toEqual(["pagination/empty-page-only-at-end"]);
    expect(byId(report, "pagination/date-window")?.reason).toMatch(
      /the listing loses entries in every kind of crawl \(pagination\.empty-page-only-at-end\), which explains it/,
    );
    expect(found.find((p) => p.startsWith("pagination/empty-page-only-at-end"))).toMatch(
      /sortOrder Asc ended on an empty page/,
    );
  });

  // A crawl that goes wrong at one page size only, the default crawl whole: the rule that owns the
  // violation fails, naming the crawl, and no other rule.
  const later = (query: URLSearchParams, size: number) =>
    sizeOf(query) === size && query.has("continuationToken");
  it.each([
    [
      "a token refused",
      "pagination/token-echoed",
      (q: URLSearchParams) => (later(q, 7) ? { refuse: 400 } : undefined),
    ],
    [
      "a 500 on a later page",
      "pagination/token-echoed",
      (q: URLSearchParams) => (later(q, 7) ? { refuse: 500 } : undefined),
    ],
    [
      "a result array that is not a list",
      "pagination/result-array",
      (q: URLSearchParams) => (later(q, 7) ? "none" : undefined),
    ],
  ])("flags %s only at pageSize 7 on %s alone", async (_, rule, wrong) => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries) => wrong(query) ?? entries),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual([rule]);
    expect(found[0]).toMatch(/^[^:]+\[fail\]: v5\.[a-z-]+: pageSize 7: /);
  });

  it("flags a listing that never ends only oldest first on pagination.end-is-empty-array alone", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      // Oldest first, the final page holds an entry and the token it was asked with: it never ends.
      through: rewriting((query, entries) =>
        query.get("sortOrder") === "Asc" && query.has("continuationToken") && entries.length === 0
          ? ["x"]
          : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/end-is-empty-array"]);
    expect(found[0]).toMatch(
      /sortOrder Asc: a non-empty page answered with the very token it was asked with/,
    );
  });

  // A deep-pagination cap: every crawl stops after the same number of entries, whatever its page size, so
  // the crawls newest first agree with each other; oldest first ends on other entries.
  it.each([
    ["an empty page", "pagination/empty-page-only-at-end", (kept: unknown[]) => kept],
    [
      "a page without a token",
      "pagination/token-until-end",
      (kept: unknown[]) => ({ entries: kept, token: null }),
    ],
  ])(
    "flags a provider that ends every crawl after 40 entries, whatever the page size, with %s, on %s alone",
    async (_, rule, end) => {
      const report = await verifySandbox("2026-01-01" as IsoDay, {
        hooks: false,
        through: rewriting((_query, entries, _url, before) => {
          const kept = entries.slice(0, Math.max(0, 40 - before));
          return before + entries.length >= 40 ? end(kept) : entries;
        }),
      });
      const found = problems(report);
      expect(checksIn(found)).toEqual([rule]);
      expect(found[0]).toMatch(/sortOrder Asc/);
    },
  );

  it("flags a provider that loses entries from every crawl of the whole listing, but not from a date window, on pagination/complete alone", async () => {
    // Every crawl without from and to lacks the same entries, so they agree with each other; the crawl of a
    // date window holds them, before the whole listing is crawled again and after.
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries) =>
        query.has("from") || query.has("to")
          ? entries
          : entries.filter((entry) => Number((entry as { id?: unknown }).id) % 5 !== 0),
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(
      /lost 1 entry \(\d+\): the date window from \S+ to \S+, pageSize 2 \(again\) has it, and it was there before/,
    );
  });

  it("flags a provider that reads the continuation token only under the document's spelling, on pagination/token-echoed alone", async () => {
    // Real clients send `continuationtoken` (SERVICE-FACTS): this provider drops it, and serves the first
    // page again. The crawl at the largest size sends its token as real clients do.
    const camelTokenOnly = (url: string) => url.replace(/([?&])continuationtoken=[^&]*/, "$1ignored=1");
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((_, entries) => entries, camelTokenOnly),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/token-echoed"]);
    expect(found[0]).toMatch(
      /pageSize 100 \(sortOrder=Desc, withDetails=True, withCount=True, continuationtoken\): the token did not lead/,
    );
  });

  it("flags a provider whose tokens work once only, on pagination/token-echoed alone", async () => {
    // Each token is refused the second time it comes: every crawl, made once, goes through; a client
    // that retries a page is refused.
    const used = new Set<string>();
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries) => {
        const token = queryValue(query, "continuationToken");
        if (token === undefined) return entries;
        if (used.has(token)) return { refuse: 400 };
        used.add(token);
        return entries;
      }),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/token-echoed"]);
    // The crawl at the boundary size 49 meets first a token another crawl already sent (the sandbox's
    // tokens name the entry they follow: after the 50th, the same at 49 as at 25), refused on its first use.
    expect(found[0]).toMatch(
      /the token of page \d+, sent a second time, was refused with 400|pageSize 49: the token sent back exactly as received was refused with 400/,
    );
  });

  it("flags entries that read otherwise on later pages at one page size only, on pagination/same-entry alone", async () => {
    // A stale copy behind pageSize 7's later pages: each amount a cent more. Ids and dates are untouched.
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((query, entries) =>
        sizeOf(query) === 7 && query.has("continuationToken") ? entries.map(centMore) : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/same-entry"]);
    expect(found[0]).toMatch(/entry \d+ read otherwise on page \d+ of pageSize 7 than on page 1 of /);
  });

  it("passes a provider whose entries change once while it is crawled, and stay changed", async () => {
    // After the first 40 pages served, every amount is a cent more: an update, not a page's doing.
    let pages = 0;
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((_, entries) => (++pages > 40 ? entries.map(centMore) : entries)),
    });
    expect(problems(report)).toEqual([]);
  });

  it("passes a strict provider that refuses the parameters it does not know, judging the largest size plainly", async () => {
    // 400 on a first page asked with withDetails or sortOrder=Desc: the explicit crawl is refused at once.
    const strict = (url: string) =>
      /[?&](withDetails|sortOrder=Desc)/i.test(url)
        ? url.replace(/\/(items|orders|payments)\?/, "/$1-refused?")
        : url;
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((_, e) => e, strict),
    });
    expect(problems(report)).toEqual([]);
    const complete = report.outcomes.find((o) => o.id === "pagination/complete");
    expect(complete?.verdict).toBe("pass");
    // Every listing judged, none skipped for the refused crawl.
    expect(complete?.reason).toMatch(/^\d+ listings with the same entries at every page size$/);
  });

  it("passes the same provider when it rewrites nothing", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      through: rewriting((_, entries) => entries),
    });
    expect(problems(report)).toEqual([]);
  });
});
