import { createServer } from "node:http";
import { queryValue, readPage } from "../../../contracts/index.js";
import { startServer } from "../../../core/http/server.js";
import type { RunningSandbox } from "../../../sandbox/index.js";

/**
 * What a listing page turns into: from the asked URL's query (and the whole URL), the page's result
 * array, how many entries the provider served before this page in the same crawl and the array the
 * sandbox served on the page before it (both read from the token asked with, so crawls under way at once
 * stay apart), the value that takes the array's place, or `{ refuse: status }` to answer the page with
 * that status instead. `{ entries, token: null }` also takes the page's token away.
 */
export type Rewrite = (
  query: URLSearchParams,
  entries: unknown[],
  url: URL,
  servedBefore: number,
  pageBefore: unknown[] | undefined,
) => unknown;

const tokenless = (value: unknown): unknown[] | undefined =>
  typeof value === "object" &&
  value !== null &&
  "token" in value &&
  value.token === null &&
  "entries" in value
    ? (value.entries as unknown[])
    : undefined;

const refusal = (value: unknown): number | undefined =>
  typeof value === "object" && value !== null && "refuse" in value ? Number(value.refuse) : undefined;

const LISTING = /\/organizations\/[^/]+(\/forms\/[^/]+\/[^/]+)?\/(items|orders|payments)$/;

/**
 * A provider in front of the sandbox that rewrites the result array of every listing page it serves; `asks`
 * turns the URL it was asked into the one it asks the sandbox (by default the same).
 */
export function rewriting(rewrite: Rewrite, asks: (url: string) => string = (url) => url) {
  return async (sandbox: RunningSandbox) => {
    const upstream = new URL(sandbox.url);
    // Entries served so far in a crawl and the sandbox's array of its last page, by the token that continues it.
    const served = new Map<string, { count: number; page: unknown[] }>();
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = { ...req.headers, host: upstream.host, "accept-encoding": "identity" };
      const answer = await fetch(`${sandbox.url}${asks(req.url ?? "/")}`, {
        method: req.method ?? "GET",
        headers: headers as unknown as Record<string, string>,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      let text = await answer.text();
      let status = answer.status;
      const url = new URL(req.url ?? "/", sandbox.url);
      if (answer.status === 200 && LISTING.test(url.pathname)) {
        const body = JSON.parse(text) as Record<string, unknown>;
        const pagination = body.pagination as { continuationToken?: unknown } | undefined;
        // The token, whatever the case of its name (real clients send `continuationtoken`).
        const before = served.get(queryValue(url.searchParams, "continuationToken") ?? "");
        for (const key of ["data", "items"]) {
          if (!Array.isArray(body[key])) continue;
          const entries = body[key] as unknown[];
          const replaced = rewrite(url.searchParams, entries, url, before?.count ?? 0, before?.page);
          status = refusal(replaced) ?? status;
          const kept = tokenless(replaced);
          if (kept && pagination) pagination.continuationToken = null;
          body[key] = kept ?? replaced;
          const read = readPage(body, key);
          if (read.ok && read.token !== undefined)
            served.set(read.token, { count: (before?.count ?? 0) + read.entries.length, page: entries });
        }
        text =
          status === 200
            ? JSON.stringify(body)
            : JSON.stringify({ errors: [{ code: "Refused", message: "no" }] });
      }
      res.writeHead(status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
      res.end(text);
    });
    const running = await startServer(server, { what: "rewriting provider" });
    return { url: running.url, close: () => running.close() };
  };
}
