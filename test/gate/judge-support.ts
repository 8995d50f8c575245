// Traffic the gate's judge is given in test/gate/judge.test.ts, built the way the layer records it.
import type { IsoDay } from "../../core/dates.js";
import type { CommandEnd } from "../../core/run-command.js";
import type { ExchangeResponse, PageSeen, RecordedExchange } from "../../gate/exchange.js";
import { judgeTraffic } from "../../gate/judge/index.js";
import { requestFacts } from "../../gate/layer/request-facts.js";
import { contract, rules } from "./support.js";

export const ITEMS = "/v5/organizations/asso/forms/Event/gala/items";
export const ORDERS = "/v5/organizations/asso/orders";
const BEARER = "Bearer good";

/** A command that ran and exited 0. */
export const exited: CommandEnd = {
  exitCode: 0,
  signal: null,
  stoppedBy: undefined,
  durationMs: 5,
  startError: undefined,
  stderrTail: [],
};

/** One call a client made, with what came back (a listing page when it was one). */
export interface Call {
  url: string;
  method?: string;
  status?: number;
  authorization?: string;
  /** Arrival (ms); default 1000 ms after the previous call. The answer is stamped at arrival. */
  at?: number;
  retryAfter?: string;
  /** The connection was closed unanswered (no status). */
  reset?: boolean;
  page?: { entries: number; token?: string; pageSize?: number; pageIndex?: number; totalPages?: number };
}

/** Builds recorded exchanges the way the layer does, from raw URLs. */
function traffic(calls: readonly Call[]): RecordedExchange[] {
  let clock = 1_700_000_000_000;
  return calls.map((call, i) => {
    clock = call.at ?? clock + 1000;
    const method = call.method ?? "GET";
    const facts = requestFacts(contract, method, call.url);
    const page: PageSeen | undefined = call.page && {
      entries: call.page.entries,
      token: call.page.token,
      pageSize: call.page.pageSize ?? 20,
      pageIndex: call.page.pageIndex,
      totalCount: undefined,
      totalPages: call.page.totalPages,
    };
    const response: ExchangeResponse = {
      status: call.reset ? undefined : (call.status ?? 200),
      madeBy: call.reset ? "gate" : "upstream",
      reason: call.reset ? "connection-reset" : undefined,
      page,
      at: clock,
      retryAfter: call.retryAfter,
    };
    return {
      seq: i + 1,
      at: clock,
      method,
      rawUrl: call.url,
      headers: {},
      route: facts.route,
      listingKey: facts.listingKey,
      token: facts.token,
      authorization: call.authorization ?? BEARER,
      response,
    };
  });
}

export const login: Call = { url: "/oauth2/token", method: "POST" };
export const full = (token: string) => ({ entries: 20, token });
export const empty = (token?: string) => (token === undefined ? { entries: 0 } : { entries: 0, token });

/** The judge's findings on `calls` as the gate would record them. */
export function judge(calls: readonly Call[], at = "2026-01-10", outcome = exited, strict = false) {
  return judgeTraffic(traffic(calls), {
    contract,
    rules,
    scenario: "uniform",
    at: at as IsoDay,
    ended: outcome,
    maxRequests: 500,
    timeoutMs: 60_000,
    budgetSpent: false,
    strict,
  }).findings;
}

export const rulesOf = (findings: ReturnType<typeof judge>) => findings.map((f) => f.rule);
