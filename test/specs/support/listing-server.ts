import { createServer } from "node:http";
import { afterAll, afterEach } from "vitest";
import { startServer } from "../../../core/http/server.js";
import { type CrawlPlan, type CrawlResult, crawl } from "../../../specs/runner/crawler.js";
import { createHttpClient } from "../../../specs/runner/http.js";
import { contract } from "./harness.js";

/** How the fixture listing misbehaves (or not). */
export type ListingBehaviour =
  | "clean"
  | "same-token-forever"
  | "ignore-token"
  | "null-array"
  | "endless"
  | "early-empty";

export interface ListingServer {
  url: string;
  /** Raw query strings received, in order. */
  queries: string[];
  close(): Promise<void>;
}

const entry = (id: number) => ({
  id,
  date: "2025-01-15T10:30:00.1234567+01:00",
  amount: { total: 1000, vat: 0 },
  payer: { email: "a@example.org", firstName: "A", lastName: "B" },
  items: [{ id, amount: 1000, type: "Donation", state: "Processed" }],
});

/**
 * A one-route listing for crawler tests: `entries` entries, `pageSize` per page; tokens are `token`
 * followed by the offset, so a token full of special characters must come back byte for byte.
 */
export async function startListingServer(
  behaviour: ListingBehaviour,
  options: { entries?: number; pageSize?: number; token?: string } = {},
): Promise<ListingServer> {
  const entries = options.entries ?? 25;
  const pageSize = options.pageSize ?? 10;
  const prefix = options.token ?? "tok+/=%& ";
  const queries: string[] = [];
  const server = createServer((req, res) => {
    const raw = (req.url ?? "").split("?")[1] ?? "";
    queries.push(raw);
    const token = new URLSearchParams(raw).get("continuationToken");
    let offset = 0;
    if (token !== null) {
      if (!token.startsWith(prefix)) {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end('{"errors":[{"message":"bad token"}]}');
        return;
      }
      offset = Number(token.slice(prefix.length));
    }
    if (behaviour === "ignore-token") offset = 0;
    const total =
      behaviour === "endless"
        ? Number.MAX_SAFE_INTEGER
        : behaviour === "early-empty"
          ? Math.min(entries, pageSize)
          : entries;
    const ids = [];
    for (let id = offset + 1; id <= Math.min(total, offset + pageSize); id++) ids.push(id);
    const next =
      behaviour === "same-token-forever" && token !== null ? token : `${prefix}${offset + ids.length}`;
    const body = {
      data: behaviour === "null-array" ? null : ids.map(entry),
      pagination: {
        pageSize,
        pageIndex: 1 + Math.floor(offset / pageSize),
        totalCount: -1,
        totalPages: -1,
        continuationToken: next,
      },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  const running = await startServer(server, { what: "listing fixture" });
  return {
    url: `${running.url}/v5/organizations/o/forms/Event/f/items`,
    queries,
    close: running.close,
  };
}

/**
 * Crawls of the form items listing, each against a fresh listing server that is closed after the test
 * (it registers the `afterEach`): call it at the top of a test file. `queries` are those the latest
 * crawl's server received.
 */
export function listingCrawls() {
  const http = createHttpClient({
    timeoutMs: 5_000,
    signal: new AbortController().signal,
    userAgent: "test",
  });
  let server: ListingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => http.close());
  return {
    async crawl(
      behaviour: ListingBehaviour,
      plan: Partial<CrawlPlan> = {},
      options: Parameters<typeof startListingServer>[1] = {},
    ): Promise<CrawlResult> {
      server = await startListingServer(behaviour, options);
      return crawl(http, {
        route: contract().routes.byId("v5.form-items"),
        url: server.url,
        query: [],
        knownEntries: undefined,
        maxPages: 50,
        timeLimitMs: 600_000,
        authorization: async () => "Bearer test",
        ...plan,
      });
    },
    queries: (): readonly string[] => server?.queries ?? [],
  };
}
