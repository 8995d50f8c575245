import {
  type CrawlLog,
  type CrawlPageLog,
  type EntryId,
  entryId,
  judgePage,
  type PageCounts,
  type Route,
  readRoutePage,
  refusalRule,
} from "../../contracts/index.js";
import { askedPageSize, asksAscending, type CrawlQuery, queryString } from "./crawl-query.js";
import { evidenceOf, excerptOf, type HttpClient, type HttpExchange, isSuccess, parseJson } from "./http.js";
import type { Evidence } from "./types.js";

/** What to crawl and how far. */
export interface CrawlPlan {
  route: Route;
  /** Full URL of the listing, without query. */
  url: string;
  /** Query pairs sent on every page (`withCount`, `pageSize`), encoded once each. */
  query: CrawlQuery;
  /** The exact number of entries the listing holds, when a provider state seeded it. */
  knownEntries: number | undefined;
  /** A continuation token to start from, in place of the first page (a crawl taken up past its start). */
  from?: string;
  /** Most pages when the number of entries is not known. */
  maxPages: number;
  timeLimitMs: number;
  authorization: () => Promise<string | undefined>;
  /** Schema sentences on a page (the result array itself excluded); empty when valid. */
  validate?: (body: unknown) => readonly string[];
  onPage?: (pages: number, entries: number) => void;
  /** What the crawl judge calls this crawl (default: from its page size). */
  label?: string;
  /**
   * The name the token goes back under (default `continuationToken`, as the document spells it; real
   * clients send `continuationtoken`, and the service reads either).
   */
  tokenName?: string;
  /**
   * Most entries whose pages the log keeps (default: all). Past it the log is dropped and marked
   * `unlogged`, so a crawl no judge will read costs no memory per page.
   */
  logEntries?: number;
  /**
   * Keep in the log what each page's entries name of other listings (`pagination.names`): the crawls the
   * completeness checks take as witnesses of those listings. Default: not kept.
   */
  logNames?: boolean;
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * What a crawl saw: counters, the first evidence of each finding, and its log (each page's request, ids
 * and token) for the crawl judge. Entries themselves are not kept.
 */
export interface CrawlResult {
  route: Route;
  pages: number;
  /**
   * Entries collected: the distinct ids (`entryId`: the integer `id`, or the fields the route names, as
   * an organization's forms are named by type and slug), and each entry without one.
   */
  entries: number;
  stop: CrawlStop;
  duplicates: { count: number; first?: Evidence };
  oversized: { count: number; first?: Evidence };
  schema: { pages: number; first?: Evidence };
  /** Totals of the first page, and the first page whose totals differ from them. */
  totals: { first?: PageCounts; firstEvidence?: Evidence; disagreement?: Evidence };
  /**
   * Tokens sent, and those with unusual characters; `first` is the token the first page gave, `final`
   * the one that led to the empty page ending the crawl (what Pact's verifier needs without states).
   */
  tokens: { sent: number; unusual: number; first?: string; final?: string };
  durationMs: number;
  /** Every page in order, for the crawl judge (`contracts/paging`). */
  log: CrawlLog;
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
  | { kind: "never-ends"; reason: string; evidence: Evidence }
  | { kind: "aborted" };

/** True when the crawl reached a legal end. */
export function endedLegally(stop: CrawlStop): boolean {
  return stop.kind === "empty-page" || stop.kind === "no-token";
}

/** The logs of the crawls that reached a legal end: the only ones the crawl judges read. */
export function legalLogs(crawls: readonly CrawlResult[]): CrawlLog[] {
  return crawls.filter((c) => endedLegally(c.stop)).map((c) => c.log);
}

/**
 * The one rule that owns each way a crawl can go wrong, so a provider's fault is blamed on its rule and
 * the other checks that needed the crawl skip with a pointer instead of failing too.
 */
export function stopRule(stop: CrawlStop, route: Route): string | undefined {
  switch (stop.kind) {
    case "empty-page":
    case "no-token":
    case "aborted":
      return undefined;
    case "first-page-refused":
    case "token-refused":
      return refusalRule(route, stop.kind === "token-refused");
    case "not-a-list":
      return "pagination.result-array";
    case "token-ignored":
      return "pagination.token-echoed";
    case "never-ends":
      return "pagination.end-is-empty-array";
  }
}

/** A sentence for a crawl that did not end legally: what happened and which rule's check reports it. */
export function describeStop(result: CrawlResult): string {
  const stop = result.stop;
  const owner = stopRule(stop, result.route);
  const see = owner ? ` (see ${owner})` : "";
  switch (stop.kind) {
    case "empty-page":
      return `ended on an empty page after ${result.pages} pages and ${result.entries} entries`;
    case "no-token":
      return `ended on a non-empty page without a token after ${result.pages} pages and ${result.entries} entries`;
    case "aborted":
      return "the run was interrupted";
    case "first-page-refused":
      return `the first page was refused with ${stop.evidence.response?.status ?? "?"}${see}`;
    case "token-refused":
      return `a continuation token sent back as received was refused with ${stop.evidence.response?.status ?? "?"} on page ${result.pages}${see}`;
    case "token-ignored":
      return `the first continuation token led back to the first page${see}`;
    case "not-a-list":
    case "never-ends":
      return `${stop.reason}${see}`;
  }
}

const UNUSUAL = /[+/=%& ]/;

const NO_COUNTS: PageCounts = { totalCount: undefined, totalPages: undefined, pageSize: undefined };

/**
 * True when a later page's totals agree with the first page's. A live listing takes new entries while it
 * is crawled, so totals that grow agree; totals that shrink, or change kind (-1, absent), do not.
 */
function sameTotals(first: PageCounts, later: PageCounts): boolean {
  const { totalCount: a, totalPages: b } = first;
  const { totalCount: c, totalPages: d } = later;
  if (a === c && b === d) return true;
  const real = (n: unknown): n is number => typeof n === "number" && n >= 0;
  return real(a) && real(b) && real(c) && real(d) && c >= a && d >= b;
}

/**
 * Crawls a listing to its end, the way the seed tells clients to: first call without a token, the token
 * sent back byte for byte (encoded exactly once), stop on an empty result array (or on a non-empty page
 * without a token, which the seed allows). Bounded in pages and time, and keeping only entry ids.
 */
export async function crawl(http: HttpClient, plan: CrawlPlan): Promise<CrawlResult> {
  const now = plan.now ?? Date.now;
  const started = now();
  const requestedSize = askedPageSize(plan.query);
  const ascending = asksAscending(plan.query);
  const bound = plan.knownEntries === undefined ? plan.maxPages : plan.knownEntries + 2;
  const seen = new Set<EntryId>();
  let unidentified = 0;
  const pages: CrawlPageLog[] = [];
  const logEntries = plan.logEntries ?? Number.POSITIVE_INFINITY;
  let unlogged = false;
  let firstIds: readonly EntryId[] | undefined;
  let firstEntries: string | undefined;
  const result: Omit<CrawlResult, "stop" | "durationMs" | "log"> = {
    route: plan.route,
    pages: 0,
    entries: 0,
    duplicates: { count: 0 },
    oversized: { count: 0 },
    schema: { pages: 0 },
    totals: {},
    tokens: { sent: 0, unusual: 0 },
  };
  let token = plan.from;
  let last: HttpExchange | undefined;
  let sentFirst: number | undefined;
  const finish = (stop: CrawlStop): CrawlResult => {
    const ended = now();
    const end = stop.kind === "empty-page" || stop.kind === "no-token" ? stop.kind : "cut";
    const label =
      plan.label ?? (requestedSize === undefined ? "the default page size" : `pageSize ${requestedSize}`);
    return {
      ...result,
      entries: seen.size + unidentified,
      stop,
      durationMs: ended - started,
      log: {
        label,
        pageSize: requestedSize,
        ...(ascending ? { ascending } : {}),
        query: plan.query,
        ...(plan.tokenName === undefined ? {} : { tokenName: plan.tokenName }),
        // Its first request's moment and its last answer's: the order of the requests, not the wall clock.
        startedAt: sentFirst ?? Number.NaN,
        endedAt: last?.answeredAt ?? Number.NaN,
        pages: unlogged ? [] : pages,
        end,
        ...(unlogged ? { unlogged } : {}),
      },
    };
  };
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
        evidence: evidenceOf(last, pageOf(last, plan.route)?.pagination),
      });
    }
    const query = queryString(plan.query, token, plan.tokenName ?? "continuationToken");
    const url = query === "" ? plan.url : `${plan.url}?${query}`;
    const exchange = await http.send({ method: "GET", url, authorization: await plan.authorization() });
    last = exchange;
    sentFirst ??= exchange.sentAt;
    result.pages++;
    if (!isSuccess(exchange.status)) {
      return finish(
        token === undefined
          ? { kind: "first-page-refused", evidence: evidenceOf(exchange) }
          : { kind: "token-refused", evidence: evidenceOf(exchange) },
      );
    }
    const parsed = parseJson(exchange);
    const page = parsed.ok
      ? readRoutePage(parsed.value, plan.route, plan.logNames === true)
      : { ok: false as const, why: parsed.why };
    if (!page.ok) return finish({ kind: "not-a-list", reason: page.why, evidence: evidenceOf(exchange) });
    if (!unlogged && seen.size + page.ids.length > logEntries) {
      unlogged = true;
      pages.length = 0;
    }
    if (!unlogged)
      pages.push({
        index: result.pages,
        url,
        sentToken: token,
        status: exchange.status,
        ids: page.ids,
        dates: page.dates,
        forms: page.forms,
        organizations: page.organizations,
        digests: page.digests,
        ...(page.kinds ? { kinds: page.kinds } : {}),
        ...(page.named ? { named: page.named } : {}),
        ...(page.held && page.held.ids.length > 0 ? { held: page.held } : {}),
        token: page.token,
      });
    if (plan.validate) {
      const findings = plan.validate(parsed.ok ? parsed.value : undefined);
      if (findings.length > 0) {
        result.schema.pages++;
        result.schema.first ??= evidenceOf(exchange, undefined, findings);
      }
    }
    const totals = page.counts ?? NO_COUNTS;
    if (!result.totals.first) {
      result.totals.first = totals;
      result.totals.firstEvidence = evidenceOf(exchange, page.pagination);
    } else if (!result.totals.disagreement && !sameTotals(result.totals.first, totals)) {
      result.totals.disagreement = evidenceOf(exchange, page.pagination);
    }
    const findings = judgePage(page, {
      index: result.pages,
      requestedSize,
      sentToken: token,
      seen,
      firstIds,
      ...(firstEntries === undefined ? {} : { firstEntries }),
    });
    for (const id of page.ids) seen.add(id);
    unidentified += page.entries.length - page.ids.length;
    if (firstIds === undefined && page.ids.length === 0) firstEntries = JSON.stringify(page.entries);
    firstIds ??= page.ids;
    let ignored = false;
    let repeated = false;
    for (const finding of findings) {
      switch (finding.kind) {
        case "oversized":
          result.oversized.count++;
          result.oversized.first ??= evidenceOf(exchange, {
            entries: finding.entries,
            pageSize: totals.pageSize,
            ...(requestedSize === undefined ? {} : { requested: requestedSize }),
          });
          break;
        case "duplicate":
          result.duplicates.count += finding.ids.length;
          result.duplicates.first ??= evidenceOf(
            exchange,
            page.entries.find((e) => entryId(e, plan.route.pagination?.entryKey) === finding.ids[0]),
            [`entry id ${finding.ids[0]} was already collected earlier in this crawl (page ${result.pages})`],
          );
          break;
        case "token-ignored":
          ignored = true;
          break;
        case "token-repeated":
          repeated = true;
          break;
      }
    }
    if (ignored) {
      return finish({
        kind: "token-ignored",
        evidence: evidenceOf(exchange, { ids: excerptOf(page.ids, 200), pagination: page.pagination }, [
          "the first token led back to the first page's entries, not to the next page",
        ]),
      });
    }
    if (repeated) {
      return finish({
        kind: "never-ends",
        reason:
          "a non-empty page answered with the very token it was asked with, so the next call would repeat it",
        evidence: evidenceOf(exchange, page.pagination),
      });
    }
    if (page.entries.length === 0) {
      if (token !== undefined) result.tokens.final = token;
      return finish({ kind: "empty-page" });
    }
    if (page.token === undefined) return finish({ kind: "no-token" });
    token = page.token;
    result.tokens.first ??= token;
    result.tokens.sent++;
    if (UNUSUAL.test(token)) result.tokens.unusual++;
    plan.onPage?.(result.pages, seen.size);
  }
}

/** The listing page of `route` an answer holds (its body parsed and read), or undefined when it holds none. */
export function pageOf(exchange: HttpExchange, route: Route) {
  const parsed = parseJson(exchange);
  const page = parsed.ok ? readRoutePage(parsed.value, route) : undefined;
  return page?.ok ? page : undefined;
}
