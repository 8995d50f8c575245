import type { Diagnostic, Route } from "../../contracts/index.js";
import { evidenceOf, excerptOf } from "./excerpt.js";
import { type HttpClient, type HttpExchange, isSuccess, parseJson } from "./http.js";
import type { Evidence } from "./types.js";

/** What to crawl and how far. */
export interface CrawlPlan {
  route: Route;
  /** Full URL of the listing, without query. */
  url: string;
  /** Query pairs sent on every page (`withCount`, `pageSize`), encoded once each. */
  query: readonly (readonly [string, string])[];
  /** The exact number of entries the listing holds, when a provider state seeded it. */
  knownEntries: number | undefined;
  /** Most pages when the number of entries is not known. */
  maxPages: number;
  timeLimitMs: number;
  authorization: () => Promise<string>;
  /** Schema findings for a page (the result array itself excluded); empty when valid. */
  validate?: (body: unknown) => readonly Diagnostic[];
  onPage?: (pages: number, entries: number) => void;
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * Why a crawl stopped. `empty-page` and `no-token` are legal ends; the others are violations, each
 * owned by one rule (see `stopRule`).
 */
export type CrawlStop =
  | { kind: "empty-page" }
  | { kind: "no-token" }
  | { kind: "first-page-refused"; evidence: Evidence }
  | { kind: "not-a-list"; reason: string; evidence: Evidence }
  | { kind: "token-refused"; evidence: Evidence }
  | { kind: "token-ignored"; evidence: Evidence }
  | { kind: "ended-early"; reason: string; evidence: Evidence }
  | { kind: "never-ends"; reason: string; evidence: Evidence }
  | { kind: "aborted" };

/** The counts one page declared. */
export interface PageTotals {
  totalCount: unknown;
  totalPages: unknown;
  pageSize: unknown;
}

/** What a crawl saw, in constant memory: counters, ids, and the first evidence of each finding. */
export interface CrawlResult {
  route: Route;
  pages: number;
  /** Distinct entry ids collected. */
  entries: number;
  stop: CrawlStop;
  duplicates: { count: number; first?: Evidence };
  oversized: { count: number; first?: Evidence };
  schema: { pages: number; first?: Evidence };
  /** Totals of the first page, and the first page whose totals differ from them. */
  totals: { first?: PageTotals; firstEvidence?: Evidence; disagreement?: Evidence };
  /**
   * Tokens sent, and those with unusual characters; `first` is the token the first page gave, `final`
   * the one that led to the empty page ending the crawl (what Pact's verifier needs without states).
   */
  tokens: { sent: number; unusual: number; first?: string; final?: string };
  durationMs: number;
}

/** True when the crawl reached a legal end. */
export function endedLegally(stop: CrawlStop): boolean {
  return stop.kind === "empty-page" || stop.kind === "no-token";
}

const UNUSUAL = /[+/=%& ]/;

function totalsOf(pagination: unknown): PageTotals {
  const p = (pagination ?? {}) as Record<string, unknown>;
  return { totalCount: p.totalCount, totalPages: p.totalPages, pageSize: p.pageSize };
}

function sameTotals(a: PageTotals, b: PageTotals): boolean {
  return a.totalCount === b.totalCount && a.totalPages === b.totalPages;
}

function queryString(pairs: readonly (readonly [string, string])[], token: string | undefined): string {
  const all = token === undefined ? pairs : [...pairs, ["continuationToken", token] as const];
  return all.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
}

/**
 * Crawls a listing to its end, the way the seed tells clients to: first call without a token, the token
 * sent back byte for byte (encoded exactly once), stop on an empty result array (or on a non-empty page
 * without a token, which the seed allows). Bounded in pages and time, and keeping only entry ids.
 */
export async function crawl(http: HttpClient, plan: CrawlPlan): Promise<CrawlResult> {
  const now = plan.now ?? Date.now;
  const started = now();
  const resultArray = plan.route.pagination?.resultArray ?? "data";
  const requestedSize = plan.query.find(([name]) => name === "pageSize")?.[1];
  const bound = plan.knownEntries === undefined ? plan.maxPages : plan.knownEntries + 2;
  const seen = new Set<number>();
  let firstIds: number[] | undefined;
  const result: Omit<CrawlResult, "stop" | "durationMs"> = {
    route: plan.route,
    pages: 0,
    entries: 0,
    duplicates: { count: 0 },
    oversized: { count: 0 },
    schema: { pages: 0 },
    totals: {},
    tokens: { sent: 0, unusual: 0 },
  };
  const finish = (stop: CrawlStop): CrawlResult => ({
    ...result,
    entries: seen.size,
    stop,
    durationMs: now() - started,
  });
  let token: string | undefined;
  let last: HttpExchange | undefined;

  for (;;) {
    if (plan.signal?.aborted) return finish({ kind: "aborted" });
    const overdue = now() - started > plan.timeLimitMs;
    if ((result.pages >= bound || overdue) && last) {
      const why = overdue
        ? `still no empty page after ${plan.timeLimitMs / 1000} s`
        : `no empty page after ${result.pages} pages`;
      const known =
        plan.knownEntries === undefined ? "" : ` (the listing was seeded with ${plan.knownEntries})`;
      return finish({
        kind: "never-ends",
        reason: `${why} and ${seen.size} entries${known}: the crawl was cut`,
        evidence: evidenceOf(
          last,
          (parseJson(last) as { value?: { pagination?: unknown } }).value?.pagination,
        ),
      });
    }
    const query = queryString(plan.query, token);
    const exchange = await http.send({
      method: "GET",
      url: query === "" ? plan.url : `${plan.url}?${query}`,
      authorization: await plan.authorization(),
    });
    last = exchange;
    result.pages++;
    if (!isSuccess(exchange.status)) {
      return finish(
        token === undefined
          ? { kind: "first-page-refused", evidence: evidenceOf(exchange) }
          : { kind: "token-refused", evidence: evidenceOf(exchange) },
      );
    }
    const parsed = parseJson(exchange);
    const body = parsed.ok ? parsed.value : undefined;
    const list =
      body !== null && typeof body === "object" ? (body as Record<string, unknown>)[resultArray] : undefined;
    if (!Array.isArray(list)) {
      const reason = !parsed.ok
        ? parsed.why
        : list === undefined
          ? `the result array "${resultArray}" is missing`
          : `"${resultArray}" is ${list === null ? "null" : typeof list}, not a list`;
      return finish({ kind: "not-a-list", reason, evidence: evidenceOf(exchange) });
    }
    const pagination = (body as Record<string, unknown>).pagination;
    if (plan.validate) {
      const findings = plan.validate(body);
      if (findings.length > 0) {
        result.schema.pages++;
        result.schema.first ??= evidenceOf(
          exchange,
          undefined,
          findings.slice(0, 8).map((d) => d.message),
        );
      }
    }
    const totals = totalsOf(pagination);
    if (!result.totals.first) {
      result.totals.first = totals;
      result.totals.firstEvidence = evidenceOf(exchange, pagination);
    } else if (!result.totals.disagreement && !sameTotals(result.totals.first, totals)) {
      result.totals.disagreement = evidenceOf(exchange, pagination);
    }
    const limits = [totals.pageSize, requestedSize === undefined ? undefined : Number(requestedSize)].filter(
      (n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0,
    );
    if (limits.length > 0 && list.length > Math.min(...limits)) {
      result.oversized.count++;
      result.oversized.first ??= evidenceOf(exchange, {
        entries: list.length,
        pageSize: totals.pageSize,
        ...(requestedSize === undefined ? {} : { requested: Number(requestedSize) }),
      });
    }
    if (list.length === 0) {
      if (plan.knownEntries !== undefined && seen.size < plan.knownEntries && token !== undefined) {
        return finish({
          kind: "ended-early",
          reason: `the token led to an empty page after ${seen.size} of the ${plan.knownEntries} entries seeded`,
          evidence: evidenceOf(exchange, pagination),
        });
      }
      if (token !== undefined) result.tokens.final = token;
      return finish({ kind: "empty-page" });
    }
    const ids: number[] = [];
    for (const entry of list) {
      const id = entry !== null && typeof entry === "object" ? (entry as { id?: unknown }).id : undefined;
      if (typeof id !== "number" || !Number.isInteger(id)) continue;
      if (firstIds === undefined || result.pages === 2) ids.push(id);
      if (seen.has(id)) {
        result.duplicates.count++;
        result.duplicates.first ??= evidenceOf(exchange, entry, [
          `entry id ${id} was already collected earlier in this crawl (page ${result.pages})`,
        ]);
      } else {
        seen.add(id);
      }
    }
    if (firstIds === undefined) {
      firstIds = ids;
    } else if (result.pages === 2 && ids.length > 0 && ids.join(",") === firstIds.join(",")) {
      return finish({
        kind: "token-ignored",
        evidence: evidenceOf(exchange, { ids: excerptOf(ids, 200), pagination }, [
          "the first token led back to the first page's entries, not to the next page",
        ]),
      });
    }
    const next = (pagination as { continuationToken?: unknown } | undefined)?.continuationToken;
    if (typeof next !== "string" || next === "") return finish({ kind: "no-token" });
    if (next === token) {
      return finish({
        kind: "never-ends",
        reason:
          "a non-empty page answered with the very token it was asked with, so the next call would repeat it",
        evidence: evidenceOf(exchange, pagination),
      });
    }
    token = next;
    result.tokens.first ??= next;
    result.tokens.sent++;
    if (UNUSUAL.test(next)) result.tokens.unusual++;
    plan.onPage?.(result.pages, seen.size);
  }
}
