import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";
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
  });

  it("flags a provider that loses entries at the page boundaries of a sync since a date (from, no to) only, on pagination/date-window alone", async () => {
    const report = await verifySandbox(AT, {
      hooks: false,
      through: rewriting((query, entries) =>
        asks(query, "from") && !asks(query, "to") && asks(query, "continuationToken")
          ? entries.slice(1)
          : entries,
      ),
    });
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/date-window"]);
    expect(found[0]).toMatch(
      /v5\.form-items: the window from=\S+ \(included\), no to: 2 of the 6 entries dated in it missing .* went missing between the pages of its crawl \(pageSize 2\)/,
    );
  });

  it("flags a provider that reads a window's ends early: cut to the second, or an hour off", async () => {
    /** A provider that asks the sandbox for `from` and `to` moved by `move`. */
    const reading = (move: (ms: number) => number) =>
      editing({
        query: (query) => {
          for (const key of [...query.keys()]) {
            const date = Date.parse(query.get(key) ?? "");
            if (/^(from|to)$/i.test(key) && !Number.isNaN(date))
              query.set(key, new Date(move(date)).toISOString());
          }
        },
      });
    const early = {
      "cut to the second": reading((ms) => Math.floor(ms / 1000) * 1000),
      "an hour early": reading((ms) => ms - 3_600_000),
    };
    for (const [name, through] of Object.entries(early)) {
      const found = problems(await verifySandbox(AT, { hooks: false, through }));
      expect(checksIn(found), name).toEqual(["pagination/date-window"]);
      expect(found[0], name).toMatch(
        /the window from=\S+ \(included\) to=\S+ \(excluded\): .*Its ends are 1 ms after two listed entries' dates/,
      );
    }
  });

  it("passes a provider that reads the windows' ends to the millisecond, each listing asked four windows (two without to)", async () => {
    const windows = new Map<string, Set<string>>();
    const through = editing({
      query: (query, asked) => {
        const from = [...query.entries()].find(([key]) => /^from$/i.test(key))?.[1];
        const to = [...query.entries()].find(([key]) => /^to$/i.test(key))?.[1] ?? "no to";
        if (!from) return;
        const asks = windows.get(asked.pathname) ?? new Set<string>();
        windows.set(asked.pathname, asks.add(`${from} ${to}`));
      },
    });
    const report = await verifySandbox(AT, { hooks: false, through });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "pagination/date-window")?.verdict).toBe("pass");
    expect(windows.size).toBe(6);
    for (const [path, asks] of windows) {
      expect(asks.size, path).toBe(4);
      expect(
        [...asks].filter((ask) => ask.endsWith(" no to")),
        path,
      ).toHaveLength(2);
    }
  });

  it("flags a provider that answers a sync with nothing new (from after the newest entry) with an error, or with no result array", async () => {
    const nothingNew = (query: URLSearchParams, entries: unknown[]) =>
      asks(query, "from") && !asks(query, "continuationToken") && entries.length === 0;
    const providers = {
      "a 404": rewriting((query, entries) => (nothingNew(query, entries) ? { refuse: 404 } : entries)),
      "no data array": editing({
        body: (url, body) => {
          if (Array.isArray(body.data) && nothingNew(url.searchParams, body.data)) delete body.data;
          return body;
        },
      }),
    };
    for (const [name, through] of Object.entries(providers)) {
      const found = problems(await verifySandbox(AT, { hooks: false, through }));
      expect(checksIn(found), name).toEqual(["pagination/date-window"]);
      expect(found[0], name).toMatch(
        /the crawl of the date window from=\S+ \(included\), no to did not end cleanly.*The window holds no entry: its first page must be the empty end/,
      );
    }
  });

  it("flags a provider that serves older entries when from selects nothing, as if no window were asked", async () => {
    const newest = new Map<string, number>();
    const through = editing({
      query: (query, asked) => {
        const from = Date.parse(query.get("from") ?? "");
        const last = newest.get(asked.pathname);
        if (!Number.isNaN(from) && !query.has("to") && last !== undefined && from > last)
          query.delete("from");
      },
      body: (url, body) => {
        const dates = (Array.isArray(body.data) ? body.data : []).map((entry) =>
          Date.parse(String((entry as { date?: unknown }).date)),
        );
        if (!url.searchParams.has("from") && dates.length > 0) {
          newest.set(url.pathname, Math.max(newest.get(url.pathname) ?? 0, ...dates));
        }
        return body;
      },
    });
    const found = problems(await verifySandbox(AT, { hooks: false, through }));
    expect(checksIn(found)).toEqual(["pagination/date-window"]);
    expect(found[0]).toMatch(
      /no to: \d+ dated outside it served .*It starts 1 ms after the newest listed entry and asks no to/,
    );
  });
});
