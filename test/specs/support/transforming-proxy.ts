import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { type Contract, queryValue, readPage } from "../../../contracts/index.js";
import { startServer } from "../../../core/http/server.js";
import { addUnknownFields, reoffsetDates } from "./transforms.js";

/** The legal variations the proxy puts between a client and a clean provider. */
export interface Variants {
  /** Replace tokens by ones full of `+ / = % &` and spaces (mapped both ways). */
  weirdTokens: boolean;
  /** What the final empty page carries: the token it was asked with, none, or a fresh one. */
  finalToken: "upstream" | "echo" | "none" | "fresh";
  /** No token on the last non-empty page (the client may stop there). */
  noTokenOnLastPage: boolean;
  unknownFields: boolean;
  /** Dates re-written at +02:00 with 7 fractional digits. */
  reoffsetDates: boolean;
  /** Gzip every JSON answer when the client accepts it. */
  gzip: boolean;
  /** Split upstream pages into pages of 1, 3, then the rest: short pages in the middle of a listing. */
  varyPageSizes: boolean;
}

export interface TransformingProxy {
  url: string;
  /** What the proxy did, so tests can prove the variation really happened. */
  stats: {
    gzipped: number;
    weirdTokens: number;
    finalPages: number;
    droppedLastTokens: number;
    splitPages: number;
  };
  close(): Promise<void>;
}

interface Cursor {
  upstreamToken: string | undefined;
  skip: number;
  /** The listing and query (the token aside) the cursor belongs to: another's token is refused. */
  listing: string;
}

const CHUNKS = [1, 3];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (["host", "accept-encoding", "content-length", "connection"].includes(name) || value === undefined)
      continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/**
 * A proxy in front of a clean provider that rewrites its answers into legal variants a real provider may
 * show. Listings are re-paginated through the proxy's own cursors, so token shapes, short pages and the
 * final page's token are the proxy's choice while the entries stay the provider's.
 */
export async function startTransformingProxy(
  upstream: string,
  contract: Contract,
  variants: Variants,
): Promise<TransformingProxy> {
  const stats = { gzipped: 0, weirdTokens: 0, finalPages: 0, droppedLastTokens: 0, splitPages: 0 };
  const cursors = new Map<string, Cursor>();
  let minted = 0;
  const mint = (cursor: Cursor): string => {
    minted++;
    const token = variants.weirdTokens ? `t+${minted}/a=b%26c&d e+/==` : `plain-${minted}`;
    if (variants.weirdTokens) stats.weirdTokens++;
    cursors.set(token, cursor);
    return token;
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    let value = body;
    if (variants.reoffsetDates) value = reoffsetDates(value);
    if (variants.unknownFields) value = addUnknownFields(value);
    let bytes = Buffer.from(JSON.stringify(value), "utf8");
    const out: Record<string, string> = { ...headers, "content-type": "application/json; charset=utf-8" };
    if (variants.gzip && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      bytes = gzipSync(bytes);
      out["content-encoding"] = "gzip";
      stats.gzipped++;
    }
    res.writeHead(status, { ...out, "content-length": String(bytes.length) }).end(bytes);
  };

  const fetchUpstream = (req: IncomingMessage, pathAndQuery: string, body?: Buffer) =>
    fetch(`${upstream}${pathAndQuery}`, {
      method: req.method ?? "GET",
      headers: forwardHeaders(req),
      ...(body && body.length > 0 ? { body } : {}),
      redirect: "manual",
    });

  const listing = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    query: URLSearchParams,
    resultArray: string,
  ) => {
    const sent = queryValue(query, "continuationToken");
    const pass = new URLSearchParams();
    for (const [name, value] of query)
      if (name.toLowerCase() !== "continuationtoken") pass.append(name, value);
    const listing = `${pathname}?${pass}`;
    const cursor: Cursor | undefined =
      sent === undefined ? { upstreamToken: undefined, skip: 0, listing } : cursors.get(sent);
    if (cursor?.listing !== listing) {
      send(req, res, 400, { errors: [{ code: "BadToken", message: "unknown token (proxy)" }] });
      return;
    }
    const page = async (token: string | undefined) => {
      const q = new URLSearchParams(pass);
      if (token !== undefined) q.set("continuationToken", token);
      const text = q.toString();
      return fetchUpstream(req, `${pathname}${text ? `?${text}` : ""}`);
    };
    const response = await page(cursor.upstreamToken);
    if (!response.ok) {
      res.writeHead(response.status, {
        "content-type": response.headers.get("content-type") ?? "text/plain",
      });
      res.end(Buffer.from(await response.arrayBuffer()));
      return;
    }
    const body = (await response.json()) as Record<string, unknown>;
    const read = readPage(body, resultArray);
    const list = read.ok ? read.entries : [];
    const pagination = { ...((read.ok && read.pagination) || {}) };
    const upstreamNext = read.ok ? read.token : undefined;
    let slice = list.slice(cursor.skip);
    let next: Cursor | undefined;
    if (variants.varyPageSizes && slice.length > 0) {
      const size = CHUNKS[cursor.skip === 0 ? 0 : 1] ?? slice.length;
      if (cursor.skip < CHUNKS.reduce((a, b) => a + b, 0) && slice.length > size) {
        slice = slice.slice(0, size);
        next = { upstreamToken: cursor.upstreamToken, skip: cursor.skip + size, listing };
        stats.splitPages++;
      }
    }
    if (!next && slice.length > 0 && upstreamNext !== undefined)
      next = { upstreamToken: upstreamNext, skip: 0, listing };
    if (slice.length === 0) {
      stats.finalPages++;
      switch (variants.finalToken) {
        case "upstream":
          pagination.continuationToken = sent ?? mint(cursor);
          break;
        case "echo":
          if (sent === undefined) delete pagination.continuationToken;
          else pagination.continuationToken = sent;
          break;
        case "none":
          delete pagination.continuationToken;
          break;
        case "fresh":
          pagination.continuationToken = mint(cursor);
          break;
      }
    } else if (next) {
      let last = false;
      if (variants.noTokenOnLastPage && next.skip === 0) {
        const ahead = await page(next.upstreamToken);
        const aheadBody = ahead.ok ? ((await ahead.json()) as Record<string, unknown>) : undefined;
        const aheadList = aheadBody?.[resultArray];
        last = Array.isArray(aheadList) && aheadList.length === 0;
      }
      if (last) {
        delete pagination.continuationToken;
        stats.droppedLastTokens++;
      } else {
        pagination.continuationToken = mint(next);
      }
    } else {
      delete pagination.continuationToken;
    }
    send(req, res, 200, { ...body, [resultArray]: slice, pagination });
  };

  const server = createServer((req, res) => {
    const target = req.url ?? "/";
    const mark = target.indexOf("?");
    const pathname = mark === -1 ? target : target.slice(0, mark);
    const query = new URLSearchParams(mark === -1 ? "" : target.slice(mark + 1));
    const route = contract.routes.match(req.method ?? "GET", pathname)?.route;
    const handle = async () => {
      if (route?.pagination && req.method === "GET") {
        await listing(req, res, pathname, query, route.pagination.resultArray);
        return;
      }
      const body = await readBody(req);
      const response = await fetchUpstream(req, target, body);
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("json")) {
        const text = await response.text();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        send(req, res, response.status, parsed);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "location", "content-disposition"]) {
        const value = response.headers.get(name);
        if (value) headers[name] = value;
      }
      res.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy error: ${String(error)}`);
    });
  });
  const running = await startServer(server, { what: "transforming proxy" });
  return { url: running.url, stats, close: running.close };
}
