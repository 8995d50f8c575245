import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

/**
 * A provider may refuse a page size the completeness checks ask for (7): the seed names no size but the
 * default and the bound of 100. The crawls that ended are then judged together all the same; before, one
 * refused size left the whole listing unjudged, and a provider that also lost entries passed.
 */
const AT = "2026-01-01" as IsoDay;
const refusesSeven = (query: URLSearchParams) => query.get("pageSize") === "7";
const sentToken = (query: URLSearchParams) =>
  [...query.keys()].some((name) => name.toLowerCase() === "continuationtoken");

describe("a page size the provider refuses", () => {
  it("still flags entries the other crawls lose: the first of every later page, on pagination/complete alone", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: rewriting((query, entries) =>
        refusesSeven(query) ? { refuse: 400 } : sentToken(query) ? entries.slice(1) : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/complete"]);
    expect(found[0]).toMatch(/v5\.form-items: .* lost \d+ entr/);
  });

  it("passes a provider that only refuses it, judging the listings with the crawls that ended", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: rewriting((query, entries) => (refusesSeven(query) ? { refuse: 400 } : entries)),
    });
    expect(problems(report)).toEqual([]);
    // Judged, not skipped: the refused size no longer leaves the listings unjudged.
    expect(byId(report, "pagination/complete")?.verdict).toBe("pass");
    expect(byId(report, "pagination/complete")?.reason).toMatch(/^\d+ listings/);
  });
});
