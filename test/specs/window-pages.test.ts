import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { checksIn, problems, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

/**
 * An integrator syncing by date asks `from` and `to` and pages through what they select. A provider that
 * loses entries at page boundaries only then passes every crawl of the whole listing; the date window is
 * crawled at pageSize 2, so that its five entries come on three pages.
 */
const AT = "2026-01-01" as IsoDay;
const asks = (query: URLSearchParams, name: string) =>
  [...query.keys()].some((key) => key.toLowerCase() === name.toLowerCase());

describe("the pages of a date window", () => {
  it("flags a provider that loses the first entry of each later page of a window, on pagination/date-window alone", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: rewriting((query, entries) =>
        asks(query, "from") && asks(query, "continuationToken") ? entries.slice(1) : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/date-window"]);
    expect(found[0]).toMatch(
      /v5\.form-items: the window from=\S+ \(included\) to=\S+ \(excluded\): 2 of the 5 entries dated in it missing \(\d+, \d+\)\. .*\d+ is dated inside it and went missing between the pages of its crawl \(pageSize 2\), as from a client paging through a sync by date/,
    );
  }, 60_000);
});
