import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { editingPagination } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
 * The listings the count deprecation leaves alone (an organization's forms, the partner's organizations)
 * keep their totals at every date: where they give them, a crawl must count as many entries. After the
 * count fields left the six listings, they are the only totals a client still reads.
 */
const AT = "2026-01-01" as IsoDay;
const LISTS = /\/v5\/(organizations\/[^/]+\/forms|partners\/me\/organizations)$/;

/** A provider whose two listings' pagination `change` rewrites (a copy). */
const totals = (change: Parameters<typeof editingPagination>[1]) => editingPagination(LISTS, change);

describe("totals a listing outside the count deprecation gives agree with a crawl, at every date", () => {
  it("flags an organization's forms listing whose totalCount is one more than it serves", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: totals((p) => ({ ...p, totalCount: Number(p.totalCount) + 1 })),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["counts/real-with-withcount"]);
    expect(found[0]).toMatch(
      /v5\.organization-forms \(totals given\): totalCount is 3 but the crawl counted 2 entries/,
    );
  });

  it("passes every legal variant: no totals (-1), and totalPages alone not given", async () => {
    for (const change of [
      (p: Record<string, unknown>) => ({ ...p, totalCount: -1, totalPages: -1 }),
      (p: Record<string, unknown>) => ({ ...p, totalCount: 7, totalPages: -1 }),
    ]) {
      const report = await verifySandbox(AT, { hooks: false, through: totals(change) });
      expect(problems(report)).toEqual([]);
      const outcome = byId(report, "counts/real-with-withcount");
      // Every listing skipped at this date: the six for their removed counts, these two for theirs.
      expect(outcome?.verdict).toBe("skip");
      expect(outcome?.reason).toContain("its first page gives no totals (-1 or none), as the seed allows");
    }
  });
});
