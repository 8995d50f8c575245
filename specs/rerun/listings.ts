import type { CrawlPageLog, EntryId, ExpectedCounts, PageCounts } from "../../contracts/index.js";
import type { StoredQuery } from "../../proxy/index.js";
import type { RerunStep } from "./steps.js";

/** One page of a listing as the target answered it: its log, as the crawl judges read it, and more. */
export interface TargetPage extends CrawlPageLog {
  readonly step: RerunStep;
  readonly size: number;
  readonly counts: PageCounts;
  readonly expected: ExpectedCounts;
}

/** The query parameter that carries the continuation token (names match without case, as the service does). */
export const TOKEN_PARAM = "continuationtoken";

/** The crawl of one listing as the target answered it, since its first page. */
export interface ListingCrawl {
  pages: TargetPage[];
  /** Distinct entry ids the target gave so far. */
  seen: Set<EntryId>;
  /** True when the crawl began with a first page (no token) in this rerun. */
  fromFirstPage: boolean;
  /** Why the target's last answer cannot lead further (refused, not a list), when it cannot. */
  broken: string | undefined;
  /** The recording's pages of this crawl, re-sent or not, for the crawl judge. */
  recorded: CrawlPageLog[];
  /** The target's pages as the crawl judge reads them (including pages followed past the recording). */
  targetLog: CrawlPageLog[];
  /** When the target's first and last pages were asked for. */
  startedAt: number;
  endedAt: number;
  /** The last step of the crawl: where a finding about the whole crawl is filed. */
  lastStep: RerunStep | undefined;
}

/** True when the recorded request carried a continuation token. */
export function isContinuation(query: StoredQuery | undefined): boolean {
  return Object.keys(query ?? {}).some((name) => name.toLowerCase() === TOKEN_PARAM);
}

/** Same route, same path, same query but the token: the same listing. */
function listingKey(step: RerunStep): string {
  const query = Object.entries(step.interaction.request.query ?? {})
    .filter(([name]) => name.toLowerCase() !== TOKEN_PARAM)
    .map(([name, value]) => `${name.toLowerCase()}=${JSON.stringify(value)}`)
    .sort();
  return `${step.match?.route.id ?? ""} ${step.interaction.request.path.toLowerCase()}?${query.join("&")}`;
}

/** The crawls of one rerun, keyed by listing. */
export function createListings() {
  const crawls = new Map<string, ListingCrawl>();
  const every: ListingCrawl[] = [];
  return {
    /** Every crawl of the rerun, in the order they began. */
    all: (): readonly ListingCrawl[] => every,
    /** The crawl a listing request belongs to; a first page (no token) starts a new one. */
    crawlFor(step: RerunStep): ListingCrawl {
      const key = listingKey(step);
      const continuation = isContinuation(step.interaction.request.query);
      const existing = crawls.get(key);
      if (existing && continuation) return existing;
      const crawl: ListingCrawl = {
        pages: [],
        seen: new Set(),
        fromFirstPage: !continuation,
        broken: undefined,
        recorded: [],
        targetLog: [],
        startedAt: 0,
        endedAt: 0,
        lastStep: undefined,
      };
      every.push(crawl);
      crawls.set(key, crawl);
      return crawl;
    },
    /** The token to send for a continuation request: the target's own, from its previous page. */
    nextToken(step: RerunStep): { ok: true; token: string } | { ok: false; reason: string } {
      const crawl = crawls.get(listingKey(step));
      const last = crawl?.pages[crawl.pages.length - 1];
      if (!crawl || (!last && !crawl.broken)) {
        return {
          ok: false,
          reason:
            "no earlier page of this listing in the cassettes to take the target's token from (recorded tokens are never sent)",
        };
      }
      if (crawl.broken) return { ok: false, reason: `the target's previous page ${crawl.broken}` };
      if (!last || last.size === 0 || last.token === undefined) {
        return {
          ok: false,
          reason: `the target's listing ended on its page ${crawl.pages.length} (${last?.size === 0 ? "empty" : "no token"}), before the recording's: nothing to continue from`,
        };
      }
      return { ok: true, token: last.token };
    },
  };
}

export type Listings = ReturnType<typeof createListings>;
