import { describe, expect, it, onTestFinished } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { startSandbox } from "../../sandbox/index.js";
import { crawl } from "../../specs/runner/crawler.js";
import { createHttpClient } from "../../specs/runner/http.js";
import { createTokenSource } from "../../specs/runner/tokens.js";
import { contract } from "./support/harness.js";
import { settledHeap } from "./support/heap.js";

const ENTRIES = 100_000;
const MB = 1024 * 1024;

describe("crawling 100,000 entries", () => {
  it("completes with memory that does not grow with the entries", async () => {
    const sandbox = await startSandbox({
      port: 0,
      at: "2025-04-01" as IsoDay,
      entries: ENTRIES,
      contract: contract(),
    });
    try {
      const http = createHttpClient({
        timeoutMs: 30_000,
        signal: new AbortController().signal,
        userAgent: "test",
      });
      onTestFinished(() => http.close());
      const tokens = createTokenSource(http, sandbox.url, {
        kind: "token-endpoint",
        reader: sandbox.credentials.reader,
        admin: undefined,
      });
      const route = contract().routes.byId("v5.form-items");
      const { organizationSlug, formType, formSlug } = sandbox.credentials;
      const samples: { entries: number; heap: number }[] = [];
      const before = settledHeap();
      const result = await crawl(http, {
        route,
        url: `${sandbox.url}/v5/organizations/${organizationSlug}/forms/${formType}/${formSlug}/items`,
        query: [["pageSize", "100"]],
        knownEntries: ENTRIES,
        maxPages: 10_000,
        // No time limit that a loaded machine could reach: the crawl must end on its last page.
        timeLimitMs: 3_600_000,
        authorization: () => tokens.authorization("reader"),
        onPage: (pages, entries) => {
          if (pages === 100 || pages === 1000) samples.push({ entries, heap: settledHeap() });
        },
      });
      const after = settledHeap();
      expect(result.stop.kind).toBe("empty-page");
      expect(result.entries).toBe(ENTRIES);
      expect(result.duplicates.count).toBe(0);
      const [early, late] = samples;
      expect(early?.entries).toBe(10_000);
      expect(late?.entries).toBe(ENTRIES);
      // 90,000 more entries read between the two samples: only their ids may stay (a few MB at most).
      const growth = (late?.heap ?? 0) - (early?.heap ?? 0);
      expect(growth).toBeLessThan(20 * MB);
      expect(after - before).toBeLessThan(50 * MB);
      process.stdout.write(
        `crawl of ${ENTRIES} entries in ${result.pages} pages, ${result.durationMs} ms; heap +${(growth / MB).toFixed(1)} MB from 10,000 to 100,000 entries, +${((after - before) / MB).toFixed(1)} MB in all\n`,
      );
    } finally {
      await sandbox.close();
    }
  });
});
