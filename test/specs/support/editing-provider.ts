import { createServer } from "node:http";
import { startServer } from "../../../core/http/server.js";
import type { RunningSandbox } from "../../../sandbox/index.js";

/**
 * What the provider does to one answer: `path` turns the asked path into the one it asks the sandbox
 * (an organization's listing for a form's, say), `query` edits the query it asks; `body` rewrites a 200
 * JSON answer, given the asked URL.
 */
export interface Edits {
  path?: (pathname: string) => string;
  /** Edits the query it asks the sandbox (in place), given the asked URL. */
  query?: (query: URLSearchParams, asked: URL) => void;
  body?: (url: URL, body: Record<string, unknown>) => unknown;
}

/**
 * A provider in front of the sandbox that asks it each request and edits the answer: the whole body,
 * pagination included, of any route (test/specs/support/rewriting-provider.ts rewrites only the result
 * arrays of the six listings).
 */
export function editing(edits: Edits) {
  return async (sandbox: RunningSandbox) => {
    const server = createServer(async (req, res) => {
      const asked = new URL(req.url ?? "/", sandbox.url);
      const url = new URL(asked);
      url.pathname = edits.path?.(url.pathname) ?? url.pathname;
      edits.query?.(url.searchParams, asked);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(url, {
        method: req.method ?? "GET",
        headers: {
          ...(req.headers as Record<string, string>),
          host: url.host,
          "accept-encoding": "identity",
        },
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const type = answer.headers.get("content-type") ?? "text/plain";
      let body = Buffer.from(await answer.arrayBuffer());
      if (edits.body && answer.status === 200 && type.startsWith("application/json")) {
        body = Buffer.from(JSON.stringify(edits.body(asked, JSON.parse(body.toString("utf8")))));
      }
      res.writeHead(answer.status, { "content-type": type });
      res.end(body);
    });
    const running = await startServer(server, { what: "a provider editing the sandbox's answers" });
    return { url: running.url, close: () => running.close() };
  };
}

/** A `pagination` object as a provider edits it. */
type Pagination = Record<string, unknown>;

/**
 * A provider whose answers on the paths `listings` matches carry the `pagination` that `change` makes of
 * (a copy of) theirs: totals off by one, or not given.
 *
 * @example editingPagination(/\/forms$/, (p) => ({ ...p, totalCount: -1, totalPages: -1 }))
 */
export function editingPagination(listings: RegExp, change: (pagination: Pagination) => Pagination) {
  return editing({
    body: (url, body) =>
      listings.test(url.pathname) && typeof body.pagination === "object" && body.pagination !== null
        ? { ...body, pagination: change({ ...(body.pagination as Pagination) }) }
        : body,
  });
}
