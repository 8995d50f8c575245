import type { PageSeen, RecordedExchange, SentToken } from "../exchange.js";
import { findParam, formDecode, rawQueryOf, splitRawQuery } from "../raw-query.js";
import type { FindingCollector } from "./findings.js";
import type { JudgeContext } from "./index.js";

/** One crawl of one listing: from a first call to its empty page (or to where the command left it). */
interface Crawl {
  readonly id: number;
  readonly listingKey: string;
  /** The token of the latest page of this crawl: what the next call must send back. */
  lastGiven: string | undefined;
  lastPage: PageSeen | undefined;
  /** Pages this crawl was given. */
  pages: number;
  lastExchange: RecordedExchange;
  /** Reached an empty page. */
  ended: boolean;
}

/** Why a page had no counts, when its date says why: "totalCount and totalPages are removed since …". */
function countsNote(exchange: RecordedExchange, { contract, at }: JudgeContext): string | undefined {
  const removal = contract.timeline.entry("count-fields-removed");
  if (!exchange.route || !removal) return undefined;
  const rules = contract.timeline.datedRulesAt(contract.routes.byId(exchange.route.id), at);
  return rules.countMode === "absent"
    ? `totalCount and totalPages are removed since ${removal.date}`
    : undefined;
}

const quote = (text: string) => JSON.stringify(text);

/** `continuationToken=` as written, when a request carried the parameter with an empty value. */
function emptyTokenParam(exchange: RecordedExchange): string | undefined {
  const param = findParam(splitRawQuery(rawQueryOf(exchange.rawUrl)), "continuationToken");
  if (param === undefined || param.value !== "") return undefined;
  return param.rawValue === undefined ? param.rawName : `${param.rawName}=${param.rawValue}`;
}

/** A guess at how a sent token came from the given one, for the report. */
export function howAltered(sent: SentToken, given: string): string | undefined {
  if (formDecode(sent.decoded) === given)
    return "it was percent-encoded twice: encode the token exactly once";
  // A URL parser turns raw spaces into %20 and leaves + & = % alone: what is left of a raw paste.
  const pasted = sent.raw.replaceAll("%20", " ");
  if (pasted === given || (pasted !== "" && given.startsWith(pasted))) {
    return "it was put in the query without percent-encoding: '+' then reads as a space, '&' ends the value, '%' starts an escape";
  }
  if (given.replaceAll("+", " ") === sent.decoded)
    return "'+' was sent unencoded and reads as a space: encode it as %2B";
  if (given.startsWith(sent.decoded)) {
    return "it was cut short: an unencoded '&' or '#' in the token ends the value";
  }
  if (sent.decoded.trim() === given.trim()) return "spaces around it were added or trimmed";
  return undefined;
}

function tokenDetails(sent: SentToken, given: string | undefined): string[] {
  const lines = [];
  if (given !== undefined) lines.push(`given: ${quote(given)}`);
  lines.push(`sent:  ${quote(sent.decoded)} (raw in the query: ${sent.raw})`);
  const how = given === undefined ? undefined : howAltered(sent, given);
  if (how) lines.push(`likely: ${how}`);
  return lines;
}

function stopNotes(crawl: Crawl, context: JudgeContext): string[] {
  const page = crawl.lastPage;
  const notes: string[] = [];
  if (!page) return notes;
  // A cause is named only where the crawl shows it. A loop bounded by totalPages -1 (or by none) reads
  // one page: a crawl that read more, or stopped on a short page (which says why), stopped otherwise.
  const short = page.pageSize !== undefined && page.entries < page.pageSize;
  const onePage = crawl.pages === 1 && !short;
  if (page.totalPages === -1) {
    if (onePage)
      notes.push(
        "the last page said totalPages -1: counts are not provided unless withCount=true, so a loop bounded by totalPages reads one page",
      );
  } else if (page.totalPages === undefined) {
    const note = onePage ? countsNote(crawl.lastExchange, context) : undefined;
    if (note) notes.push(`the page had no totalPages (${note}): a loop bounded by it stops`);
  } else if (page.pageIndex !== undefined && page.pageIndex >= page.totalPages) {
    notes.push(
      `it stopped at pageIndex ${page.pageIndex} = totalPages: the end is the empty page, not totalPages`,
    );
  }
  if (short) {
    notes.push(
      `the last page held ${page.entries} entries, fewer than pageSize ${page.pageSize}: a short page is not the end`,
    );
  }
  return notes;
}

/**
 * Judges every crawl of every listing (seed pagination rules 1, 3, 4, 5, 7): first call without a
 * token, each next call sending back the token just given, nothing after the empty page, no stop
 * before it (unless a non-empty page came without a token), no token the server never issued.
 * Parallel crawls of one listing are told apart by the token each call sends. Crawls cut short by the
 * gate (`commandStopped`) are not "stopped early".
 */
export function judgeCrawls(
  exchanges: readonly RecordedExchange[],
  collector: FindingCollector,
  context: JudgeContext,
  commandStopped: boolean,
): number {
  const crawls: Crawl[] = [];
  const issued = new Set<string>();
  const latest = (key: string, accept: (c: Crawl) => boolean) =>
    crawls.findLast((c) => c.listingKey === key && accept(c));

  for (const exchange of exchanges) {
    const key = exchange.listingKey;
    if (key === undefined) continue;
    const sent = exchange.token;
    let crawl: Crawl | undefined;
    const start = () => {
      const created: Crawl = {
        id: crawls.length + 1,
        listingKey: key,
        lastGiven: undefined,
        lastPage: undefined,
        pages: 0,
        lastExchange: exchange,
        ended: false,
      };
      crawls.push(created);
      return created;
    };
    if (sent === undefined) {
      crawl = start();
      const blank = emptyTokenParam(exchange);
      if (blank !== undefined) {
        collector.add("crawl.first-call-without-token", `crawl ${crawl.id}`, {
          message: `started a crawl with an empty continuationToken (${blank}): the first call carries no token at all`,
          exchange,
          details: [
            "whatever the server answers, an empty token is not the absence of one; leave the parameter out",
          ],
        });
      }
    } else {
      crawl = latest(key, (c) => c.lastGiven === sent.decoded);
      if (crawl?.ended) {
        collector.add("crawl.no-call-after-empty-page", `crawl ${crawl.id}`, {
          message: `called ${crawl.lastExchange.method} again after an empty page had ended the crawl`,
          exchange,
          details: [
            `the empty page came at request #${crawl.lastExchange.seq}; it carried a token, which does not mean "more"`,
          ],
        });
      } else if (crawl === undefined) {
        const open = latest(key, (c) => !c.ended);
        if (open) {
          crawl = open;
          const wasIssued = issued.has(sent.decoded);
          collector.add("crawl.token-echoed", `crawl ${open.id}`, {
            message: wasIssued
              ? "sent back another token than the one the previous page gave (an older one, or one of another crawl)"
              : "sent back a token that differs from the one the previous page gave",
            exchange,
            details: tokenDetails(sent, open.lastGiven),
          });
        } else if (issued.has(sent.decoded)) {
          crawl = start();
          collector.add("crawl.first-call-without-token", `crawl ${crawl.id}`, {
            message: "started a crawl with a continuationToken (of another listing or an ended crawl)",
            exchange,
            details: tokenDetails(sent, undefined),
          });
        } else {
          crawl = start();
          collector.add("crawl.no-invented-token", `crawl ${crawl.id}`, {
            message: "sent a continuationToken the server never issued",
            exchange,
            details: tokenDetails(sent, undefined),
          });
        }
      }
    }
    crawl.lastExchange = exchange;
    const page = exchange.response?.page;
    if (page) {
      crawl.lastPage = page;
      crawl.pages++;
      crawl.lastGiven = page.token;
      if (page.token !== undefined) issued.add(page.token);
      if (page.entries === 0) crawl.ended = true;
    }
  }

  // Without a token request after the 401, the auth judge reports it; here only "renewed, never resumed".
  const renewedAfter = (seq: number) => exchanges.some((e) => e.seq > seq && e.route?.id === "token");
  if (!commandStopped) {
    for (const crawl of crawls) {
      if (crawl.ended) continue;
      const status = crawl.lastExchange.response?.status;
      const page = crawl.lastExchange.response?.page;
      const restarted = crawls.some((c) => c.id > crawl.id && c.listingKey === crawl.listingKey);
      if (page && page.entries > 0 && page.token !== undefined) {
        collector.add("crawl.reaches-empty-page", `crawl ${crawl.id}`, {
          message: `stopped after a non-empty page that carried a token, before the empty page (page ${page.pageIndex ?? "?"})`,
          exchange: crawl.lastExchange,
          details: stopNotes(crawl, context),
        });
      } else if (status === 401 && !restarted && renewedAfter(crawl.lastExchange.seq)) {
        collector.add("crawl.reaches-empty-page", `crawl ${crawl.id}`, {
          message: "got a fresh access token after a 401 but never resumed the crawl",
          exchange: crawl.lastExchange,
        });
      }
    }
  }
  return crawls.length;
}
