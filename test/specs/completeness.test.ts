import { describe, expect, it } from "vitest";
import { judgeCompleteness, readPage } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { crawl } from "../../specs/runner/crawler.js";
import { createHttpClient } from "../../specs/runner/http.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { clientToken } from "../support/client-token.js";
import { runCli } from "../support/run-cli.js";
import { byId, contract, problems, sandboxInput, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

const COMPLETENESS = [
  "pagination/complete",
  "pagination/empty-page-only-at-end",
  "pagination/token-until-end",
];

describe("completeness on a live listing", () => {
  // Each fresh first page, whatever its query, and the third page of each crawl of a form take one more
  // entry. (Grown at every third page asked, the sandbox's oldest-first crawls, under way together at the
  // end of a run, grew the tail for one another at every page and never met their empty page.)
  it.each([
    ["with provider states", true],
    ["without hooks", false],
  ])("passes a listing that grows with each first page and while it is crawled (%s)", async (_, hooks) => {
    for (const at of ["2025-01-15", "2026-01-01"] as IsoDay[]) {
      const sandbox = await startSandbox({
        port: 0,
        at,
        entries: 50,
        contract: contract(),
        growing: true,
        hooks,
      });
      try {
        const input = sandboxInput(sandbox, at, hooks ? {} : { stateUrl: undefined });
        const report = await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
        expect(problems(report), `at ${at}`).toEqual([]);
        for (const id of COMPLETENESS) expect(byId(report, id)?.verdict, `${id} at ${at}`).toBe("pass");
        // The listing did grow while verify crawled it (with states, teardown puts the seeded data back).
        if (hooks) continue;
        const { organizationSlug, formType, formSlug } = sandbox.credentials;
        const token = await clientToken(sandbox.url, sandbox.credentials.reader);
        // The real clients' query: each fresh first page has one more entry at its head.
        const head = async () => {
          const first = await fetch(
            `${sandbox.url}/v5/organizations/${organizationSlug}/forms/${formType}/${formSlug}/items?pageSize=100&sortOrder=Desc&withDetails=True&withCount=True`,
            { headers: { authorization: `Bearer ${token}` } },
          );
          const page = readPage(await first.json(), "data");
          return page.ok ? page.ids : [];
        };
        const [before, after] = [await head(), await head()];
        expect(before.length).toBeGreaterThan(60);
        expect(after.slice(1)).toEqual(before.slice(0, 99));
      } finally {
        await sandbox.close();
      }
    }
  });
});

describe("the time order of crawls", () => {
  it("is the order of their requests, even where the wall clock stands still", async () => {
    // A live listing: every fresh first page, whatever its query, is served after one more entry at the head.
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 30,
      contract: contract(),
      growing: true,
      hooks: false,
    });
    const http = createHttpClient({
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      userAgent: "t",
    });
    try {
      const bearer = `Bearer ${await clientToken(sandbox.url, sandbox.credentials.reader)}`;
      const { organizationSlug, formType, formSlug } = sandbox.credentials;
      const url = `${sandbox.url}/v5/organizations/${organizationSlug}/forms/${formType}/${formSlug}/items`;
      const asked = (query: [string, string][], tokenName?: string) =>
        crawl(http, {
          route: contract().routes.byId("v5.form-items"),
          url,
          query,
          knownEntries: undefined,
          maxPages: 100,
          timeLimitMs: 60_000,
          authorization: async () => bearer,
          // A wall clock that does not move (a clock set back, fake timers, two crawls in one millisecond).
          now: () => 0,
          ...(tokenName ? { tokenName } : {}),
        });
      const seven = await asked([["pageSize", "7"]]);
      const realClients = await asked(
        [
          ["pageSize", "100"],
          ["sortOrder", "Desc"],
          ["withDetails", "True"],
          ["withCount", "True"],
        ],
        "continuationtoken",
      );
      const again = await asked([]);
      expect(seven.log.endedAt).toBeLessThan(realClients.log.startedAt);
      expect(realClients.log.endedAt).toBeLessThan(again.log.startedAt);
      const judged = judgeCompleteness([seven.log, realClients.log, again.log]);
      // The entry the real clients' crawl met first came after pageSize 7 ended: new, not lost.
      expect(judged.losses).toEqual([]);
      expect(judged.suspects.find((s) => s.crawl === seven.log)?.missing.length).toBeGreaterThan(0);
    } finally {
      http.close();
      await sandbox.close();
    }
  });
});

describe("a loss, as evidence", () => {
  it("draws the crawl with the offending page marked, and its repro replays the loss", async () => {
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: 50,
      contract: contract(),
      fault: "drop-at-boundary",
      hooks: false,
    });
    try {
      const input = sandboxInput(sandbox, "2025-04-01" as IsoDay, {
        stateUrl: undefined,
        only: COMPLETENESS,
      });
      const report = await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
      const outcome = byId(report, "pagination/complete");
      expect(outcome?.verdict).toBe("fail");
      const crawl = outcome?.evidence?.crawl;
      expect(crawl?.label).toMatch(/pageSize 7/);
      const offending = crawl?.pages.filter((p) => p.offending) ?? [];
      expect(offending).toHaveLength(1);
      expect(outcome?.evidence?.request?.url).toBe(offending[0]?.url);
      expect(crawl?.expected).toMatch(/more entries/);
      // The repro: the crawl's requests from its first page to the offending one, as curl lines.
      const diagnostics = outcome?.evidence?.diagnostics ?? [];
      const repro = diagnostics.filter((d) => d.startsWith("curl "));
      // Each missing entry is named by id, beside the count.
      expect(diagnostics.find((d) => d.startsWith("missing from pageSize 7"))).toMatch(
        /^missing from pageSize 7[^:]*\((\d+)\): \d+(, \d+)*$/,
      );
      expect(repro).toHaveLength(offending[0]?.index ?? 0);
      // Replayed against the provider, it shows the same gap: the entry named missing is in no page.
      const missing = Number(/lost \d+ entr(?:y|ies) \((\d+)/.exec(outcome?.reason ?? "")?.[1]);
      const token = await clientToken(sandbox.url, sandbox.credentials.reader);
      const seen: number[] = [];
      for (const line of repro) {
        const url = /'([^']+)'/.exec(line)?.[1] ?? "";
        const page = readPage(
          await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json(),
          "data",
        );
        if (page.ok) for (const id of page.ids) if (typeof id === "number") seen.push(id);
      }
      expect(Number.isInteger(missing)).toBe(true);
      expect(seen).not.toContain(missing);
      expect(seen.at(-1)).toBe(offending[0]?.lastId);
    } finally {
      await sandbox.close();
    }
  });

  it("skips the crawls at other sizes above --max-entries, saying what was not checked", async () => {
    const report = await verifySandbox("2025-04-01" as IsoDay, {
      fault: "drop-at-boundary",
      extra: { maxEntries: 10, only: COMPLETENESS },
    });
    // Listings of 10 entries or fewer are still judged; the others say what was not looked for.
    for (const id of COMPLETENESS) {
      expect(byId(report, id)?.verdict).not.toBe("fail");
      expect(byId(report, id)?.reason).toMatch(/more than --max-entries 10: not crawled at other page sizes/);
    }
  });
});

describe("the completeness flags", () => {
  it.each([["abc"], ["0"], ["1.5"], ["-3"]])(
    "--max-entries %s is a usage error with a hint",
    async (value) => {
      const result = await runCli(["verify", `--max-entries=${value}`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--max-entries must be a whole number above 0, got "${value}"`);
      expect(result.stderr).toContain("hint: for example --max-entries 10000");
    },
  );

  it("--help names --max-entries (verify) and --growing (sandbox)", async () => {
    expect((await runCli(["verify", "--help"])).stdout).toMatch(/--max-entries N/);
    expect((await runCli(["sandbox", "--help"])).stdout).toMatch(/--growing/);
  });
});

/**
 * A provider of our own making, in front of the sandbox: it loses the tenth entry of every listing page
 * whose request `loses` picks (path and query) and serves every other page whole. No issue names these;
 * the general judge must catch each of them.
 */
const losingWhen = (loses: (url: string) => boolean) =>
  rewriting((_, entries, url) =>
    loses(`${url.pathname}${url.search}`) && entries.length >= 10
      ? [...entries.slice(0, 9), ...entries.slice(10)]
      : entries,
  );

describe("a way of losing entries no fault names", () => {
  it("a provider that loses entries only at the largest page size is caught, on a witness of another size", async () => {
    const report = await verifySandbox("2025-04-01" as IsoDay, {
      hooks: false,
      extra: { stateUrl: undefined, only: COMPLETENESS },
      through: losingWhen((url) => /[?&]pageSize=100\b/i.test(url)),
    });
    const outcome = byId(report, "pagination/complete");
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(
      /(pageSize 100 \(sortOrder=Desc, withDetails=True, continuationtoken\)|sortOrder Asc)( \(again\))? lost 1 entry/,
    );
    expect(outcome?.reason).not.toMatch(/witness\) lost/);
  });

  it("a provider that loses entries only when no pageSize is asked is caught: the suspect crawl is asked again as it was", async () => {
    // After the counts' removal: no crawl with withCount=true goes without a pageSize, so only the suspect
    // asked again can confirm the loss.
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      extra: { stateUrl: undefined, only: COMPLETENESS },
      through: losingWhen((url) => /\/(items|orders|payments)\b/.test(url) && !/[?&]pageSize=/.test(url)),
    });
    const outcome = byId(report, "pagination/complete");
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(/lost \d+ entr/);
  });

  it("a provider that loses entries only when withCount=true is asked is caught after the counts are gone", async () => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      extra: { stateUrl: undefined, only: COMPLETENESS },
      through: losingWhen((url) => /[?&]withCount=true\b/i.test(url)),
    });
    const outcome = byId(report, "pagination/complete");
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(/withCount=True, continuationtoken\)( \(again\))? lost \d+ entr/);
  });

  it.each([
    ["withDetails=true", /[?&]withDetails=true\b/i],
    ["sortOrder=Desc asked aloud", /[?&]sortOrder=Desc\b/i],
  ])("a provider that loses entries only when %s is asked is caught", async (_, asked) => {
    const report = await verifySandbox("2026-01-01" as IsoDay, {
      hooks: false,
      extra: { stateUrl: undefined, only: COMPLETENESS },
      through: losingWhen((url) => asked.test(url)),
    });
    const outcome = byId(report, "pagination/complete");
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(
      /\(sortOrder=Desc, withDetails=True, withCount=True, continuationtoken\)( \(again\))? lost \d+ entr/,
    );
  });
});
