import { createServer, type IncomingMessage, type Server } from "node:http";
import { type Contract, loadContract, readPage } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { startServer } from "../../core/http/server.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../sandbox/index.js";
import { clientToken } from "../support/client-token.js";

/** The dates every dated behaviour is tested at: both sides of every timeline entry. */
export const DATES = [
  "2024-12-01",
  "2025-01-15",
  "2025-04-01",
  "2025-05-10",
  "2025-06-15",
  "2025-07-01",
  "2026-01-01",
] as const satisfies readonly string[];

let cached: Contract | undefined;

/** The contract, loaded once per test file. */
export function contract(): Contract {
  cached ??= loadContract();
  return cached;
}

export type Role = "admin" | "reader";

/** A started sandbox with a small HTTP client around it. */
export interface Harness {
  sandbox: RunningSandbox;
  url: string;
  token(role?: Role): Promise<string>;
  /** Forgets cached tokens (after moving the clock past their expiry). */
  forgetTokens(): void;
  get(path: string, role?: Role | "none"): Promise<Response>;
  json<T = Record<string, unknown>>(path: string, role?: Role | "none"): Promise<{ status: number; body: T }>;
  send(method: string, path: string, body: unknown, role?: Role | "none"): Promise<Response>;
  state(state: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  clock(body: Record<string, unknown>): Promise<void>;
  formPath(kind: "items" | "orders" | "payments", version?: "v5" | "v3"): string;
  close(): Promise<void>;
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ contract: contract(), ...options });
  const url = sandbox.url;
  const tokens = new Map<Role, string>();
  const c = sandbox.credentials;
  const token = async (role: Role = "admin") => {
    const known = tokens.get(role);
    if (known) return known;
    const bearer = await clientToken(url, role === "admin" ? c.admin : c.reader);
    tokens.set(role, bearer);
    return bearer;
  };
  const headers = async (role: Role | "none"): Promise<Record<string, string>> =>
    role === "none" ? {} : { authorization: `Bearer ${await token(role)}` };
  const get = async (path: string, role: Role | "none" = "admin") =>
    fetch(`${url}${path}`, { headers: await headers(role) });
  const send = async (method: string, path: string, body: unknown, role: Role | "none" = "admin") =>
    fetch(`${url}${path}`, {
      method,
      headers: { ...(await headers(role)), "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    sandbox,
    url,
    token,
    forgetTokens: () => tokens.clear(),
    get,
    async json<T>(path: string, role: Role | "none" = "admin") {
      const response = await get(path, role);
      return { status: response.status, body: (await response.json()) as T };
    },
    send,
    async state(state, params = {}) {
      const response = await send("POST", "/_states", { state, params, action: "setup" }, "none");
      if (response.status !== 200)
        throw new Error(`state ${state}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    },
    async clock(body) {
      const response = await send("POST", "/_clock", body, "none");
      if (response.status !== 200) throw new Error(`clock: ${response.status}`);
    },
    formPath(kind, version = "v5") {
      return `/${version}/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}/${kind}`;
    },
    close: () => sandbox.close(),
  };
}

export interface Page {
  data?: unknown[];
  items?: unknown[];
  pagination: {
    pageSize: number;
    pageIndex: number;
    totalCount?: number;
    totalPages?: number;
    continuationToken?: string | null;
  };
}

/** How a test crawl ended: an empty page, a non-empty page without a token, or its page bound. */
export type TestCrawlEnd = "empty-page" | "no-token" | "bound";

/**
 * Crawls a listing the way the seed says: until an empty result array, echoing the token. Pages are read
 * by the contract's one page reader (`readPage`). Throws on a refused call.
 */
export async function crawl(
  h: Harness,
  path: string,
  query: Record<string, string> = {},
  maxPages = 1000,
): Promise<{ ids: number[]; pages: Page[]; sizes: number[]; ended: boolean; end: TestCrawlEnd }> {
  const ids: number[] = [];
  const pages: Page[] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  const done = (end: TestCrawlEnd) => ({ ids, pages, sizes, ended: end === "empty-page", end });
  for (let n = 0; n < maxPages; n++) {
    const params = new URLSearchParams(query);
    if (token !== undefined) params.set("continuationToken", token);
    const response = await h.get(`${path}?${params}`);
    if (response.status !== 200)
      throw new Error(`crawl ${path}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as Page;
    pages.push(body);
    const page = readPage(body, "items" in body ? "items" : "data");
    if (!page.ok) throw new Error(`crawl ${path}: ${page.why}`);
    if (page.entries.length === 0) return done("empty-page");
    for (const id of page.ids) if (typeof id === "number") ids.push(id); // an items listing's ids
    sizes.push(page.entries.length);
    token = page.token;
    if (token === undefined) return done("no-token");
  }
  return done("bound");
}

/** A receiver of notifications on 127.0.0.1, port 0: records raw bodies and headers. */
export interface Receiver {
  url: string;
  received: { body: string; signature: string | undefined; path: string }[];
  /** Status to answer with, by attempt number (1-based); default 200. */
  statusFor: (attempt: number, req: IncomingMessage) => number | "hang";
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function receiver(): Promise<Receiver> {
  let attempts = 0;
  const hanging: import("node:http").ServerResponse[] = [];
  const result: Receiver = {
    url: "",
    received: [],
    statusFor: () => 200,
    async waitFor(count) {
      while (result.received.length < count) await new Promise((r) => setTimeout(r, 10));
    },
    close: () => {
      for (const res of hanging) res.destroy();
      return running.close();
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      attempts += 1;
      const status = result.statusFor(attempts, req);
      result.received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: req.headers["x-ha-signature"] as string | undefined,
        path: req.url ?? "/",
      });
      if (status === "hang") {
        hanging.push(res);
        return;
      }
      res.writeHead(status).end();
    });
  });
  const running = await startServer(server, { what: "test receiver" });
  result.url = `${running.url}/hook`;
  return result;
}

export const day = (text: string) => text as IsoDay;
