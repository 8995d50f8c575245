import { isTransientRefusal, RETRY_SLACK_MS, type RecordedExchange } from "../exchange.js";
import { rawPathOf } from "../raw-query.js";
import type { FindingCollector } from "./findings.js";
import type { JudgeContext } from "./index.js";

/** What the retry judge tells the run's judge: a call given up on, and a loop of refusals at the end. */
export interface RetryFacts {
  /** The first refused call the command never made again. */
  readonly unretried: RecordedExchange | undefined;
  /** The refusals of one call in a row at the end of the traffic (a retry loop the gate stopped). */
  readonly loop: { readonly first: RecordedExchange; readonly count: number } | undefined;
}

/** The call a retry repeats: the listing (route and path parameters), else method and path. */
const callOf = (e: RecordedExchange) => e.listingKey ?? `${e.method} ${rawPathOf(e.rawUrl)}`;
const isApiCall = (e: RecordedExchange) => e.route !== undefined && e.route.id !== "token";

/** "the 429 at request #5 (Retry-After: 1)", "the connection reset at request #5". */
export function refusalText(e: RecordedExchange): string {
  const r = e.response;
  if (r?.status === undefined) return `the connection reset at request #${e.seq}`;
  const header = r.retryAfter === undefined ? "" : ` (Retry-After: ${r.retryAfter})`;
  return `the ${r.status} at request #${e.seq}${header}`;
}

/**
 * The moment a refusal's `Retry-After` asks the client to wait for (RFC 9110 §10.2.3: whole seconds
 * after the answer, or an HTTP-date), or `undefined` when there is none or it does not parse.
 */
export function retryMoment(e: RecordedExchange): number | undefined {
  const r = e.response;
  const value = r?.retryAfter?.trim();
  if (r === undefined || !value) return undefined;
  if (/^\d+$/.test(value)) return r.at + Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);

/**
 * Judges what the command did after each transient refusal (429, 502-504, a reset; SERVICE-FACTS: real
 * clients retry them honouring `Retry-After`): the retry of the same call comes no sooner than
 * `Retry-After` asked, and a refused crawl call is retried with the token it carried, not restarted
 * from page 1. A refused crawl call never made again while the command exits 0 is a page lost.
 */
export function judgeRetries(
  exchanges: readonly RecordedExchange[],
  collector: FindingCollector,
  context: JudgeContext,
  commandStopped: boolean,
): RetryFacts {
  const calls = exchanges.filter(isApiCall);
  let unretried: RecordedExchange | undefined;
  for (const [index, refused] of calls.entries()) {
    if (!isTransientRefusal(refused.response)) continue;
    const call = callOf(refused);
    const retry = calls.slice(index + 1).find((e) => callOf(e) === call);
    const what = refusalText(refused);
    if (retry === undefined) {
      if (commandStopped) continue;
      unretried ??= refused;
      if (context.ended.exitCode === 0 && refused.listingKey !== undefined) {
        collector.add("retry.resumes-with-token", `lost ${call}`, {
          message: `never made the refused call again, and exited 0: the rest of the listing was not read, and the failure not reported`,
          exchange: refused,
          details: [`${what} ended the crawl`],
        });
      }
      continue;
    }
    const moment = retryMoment(refused);
    const answeredAt = refused.response?.at ?? refused.at;
    if (moment !== undefined && retry.at < moment - RETRY_SLACK_MS) {
      collector.add("retry.waits-retry-after", call, {
        message: `retried ${retry.at - answeredAt} ms after ${what}, which asked to wait ${moment - answeredAt} ms`,
        exchange: retry,
        details: [
          `asked: not before ${clock(moment)} UTC; the retry came at ${clock(retry.at)} UTC, ${moment - retry.at} ms too early`,
        ],
      });
    }
    if (refused.token !== undefined && retry.token === undefined) {
      collector.add("retry.resumes-with-token", `restart ${call}`, {
        message: `restarted the crawl from page 1 after ${what}, instead of retrying with the token the refused call carried`,
        exchange: retry,
        details: [
          `the refused call carried continuationToken ${JSON.stringify(refused.token.decoded)}: send it again`,
          "the pages before the refusal are read twice (and on a growing listing, shifted)",
        ],
      });
    }
  }
  return { unretried, loop: trailingLoop(calls) };
}

/** The refusals of one call in a row at the end of the traffic, when there are more than two. */
function trailingLoop(calls: readonly RecordedExchange[]): RetryFacts["loop"] {
  let count = 0;
  let first: RecordedExchange | undefined;
  for (const e of [...calls].reverse()) {
    if (e.response !== undefined && !isTransientRefusal(e.response)) break;
    if (e.response === undefined) continue;
    if (first !== undefined && callOf(e) !== callOf(first)) break;
    first = e;
    count += 1;
  }
  return first !== undefined && count > 2 ? { first, count } : undefined;
}
