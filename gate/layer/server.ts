import { createHmac } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { type Contract, readPage } from "../../contracts/index.js";
import { readBody, refuseTooLarge, tooLargeDetail } from "../../core/http/body.js";
import { decodedBytes } from "../../core/http/coding.js";
import { endToEndHeaders } from "../../core/http/headers.js";
import { createLocalGuard } from "../../core/http/local-guard.js";
import { startServer } from "../../core/http/server.js";
import { firstHeader } from "../../proxy/http/message.js";
import { INTERCEPTED_HEADER } from "../../proxy/intercept/hosts.js";
import {
  type ExchangeResponse,
  type GateAnswer,
  type PageSeen,
  RETRY_SLACK_MS,
  type RecordedExchange,
} from "../exchange.js";
import { replaceParam } from "../raw-query.js";
import { type Fault, pageLimit, type Scenario, type TokenStyle } from "../scenarios.js";
import { requestFacts } from "./request-facts.js";

/** How to start the scenario layer (resolved by the gate; not a public surface). */
export interface LayerOptions {
  /** Base URL of the sandbox or replay server behind the layer. */
  readonly upstream: string;
  readonly scenario: Scenario;
  readonly contract: Contract;
  /** Requests served at most; the next one gets 503 and `onBudgetSpent` is called once. */
  readonly maxRequests: number;
  /** Seed of the tokens the layer mints (deterministic reports). */
  readonly seed: string;
  readonly upstreamTimeoutMs: number;
  readonly onBudgetSpent: () => void;
  /** Rewrites a token request's body on its way upstream (default: as sent). */
  readonly tokenBody?: (body: Buffer) => Buffer;
  /**
   * Names a request's `Host` may use besides the loopback ones: `--allow-host` names and the hosts the
   * command's requests are intercepted for (`--intercept`).
   */
  readonly allowHosts?: readonly string[];
}

/** One layer's state: what it recorded, the tokens it issued, the scenario's doings. */
function layerContext(options: LayerOptions) {
  return {
    options,
    traffic: createTrafficLog(options.maxRequests),
    cursors: createCursorTable(
      createTokenMint(options.scenario.tokens, `${options.seed}:${options.scenario.name}`),
    ),
    access: createAccess(options.seed),
    faults: createFaultSchedule(options.scenario.faults),
    budgetReported: false,
  };
}

type LayerContext = ReturnType<typeof layerContext>;

/** The largest request body the layer reads and forwards; a larger one gets 413 and is not forwarded. */
export const LAYER_MAX_BODY_BYTES = 1_048_576;

/**
 * The traffic of one scenario, in arrival order, bounded by the request budget: past it nothing more is
 * kept, and `exhausted` turns true.
 */
function createTrafficLog(maxRequests: number) {
  const kept: RecordedExchange[] = [];
  let exhausted = false;
  return {
    /** Records a request, stamped with its arrival; `undefined` when the budget is spent (the request must not be served). */
    begin(request: Omit<RecordedExchange, "seq" | "at" | "response">): number | undefined {
      if (kept.length >= maxRequests) {
        exhausted = true;
        return undefined;
      }
      const seq = kept.length + 1;
      kept.push({ ...request, seq, at: Date.now(), response: undefined });
      return seq;
    },
    /** Records the answer to request `seq`. */
    finish(seq: number, response: ExchangeResponse) {
      const found = kept[seq - 1];
      if (found) kept[seq - 1] = { ...found, response: Object.freeze(response) };
    },
    get exhausted() {
      return exhausted;
    },
    exchanges: () => Object.freeze(kept.map((e) => Object.freeze({ ...e }))),
  };
}

/**
 * Where a continuation token the gate handed out leads: which listing, which upstream page (by the
 * upstream's own token, `undefined` for the first page), how many entries of that page were already
 * served, and the index of the page it leads to.
 */
interface Cursor {
  readonly listingKey: string;
  readonly upstreamToken: string | undefined;
  readonly skip: number;
  readonly pageIndex: number;
}

/** The fixed start the service-style tokens share (base64 of it is `+/+/`), as the sandbox's do. */
const PREFIX = Buffer.from([0xfb, 0xff, 0xbf]);

/**
 * A mint of continuation tokens, deterministic for a given seed and unique within one mint, in a style:
 * - `service`: base64 of 22 bytes, so every token holds `+` and `/` and ends with `==`, like the service's;
 * - `tricky`: tokens holding `+ / = % &`, spaces, `%2B`-looking text and a lone `%`: any decoding twice,
 *   encoding not at all or splitting on `&` changes them.
 *
 * @example createTokenMint("tricky", "run-1")() // "+/= 1 a%2Bb&c=d %zz …=="
 */
function createTokenMint(style: TokenStyle, seed: string): () => string {
  let counter = 0;
  const digest = (n: number) => createHmac("sha256", seed).update(`token:${n}`).digest();
  return () => {
    counter += 1;
    const bytes = digest(counter);
    switch (style) {
      case "service":
        return Buffer.concat([PREFIX, bytes.subarray(0, 19)]).toString("base64");
      case "tricky": {
        const hex = bytes.subarray(0, 4).toString("hex");
        return `+/= ${counter} a%2Bb&c=d %zz%26 e+f/${hex} &=`;
      }
    }
  };
}

/** The tokens one layer issued. Every token is new; looking one up never consumes it. */
function createCursorTable(mint: () => string) {
  const cursors = new Map<string, Cursor>();
  return {
    issue(cursor: Cursor): string {
      let token = mint();
      while (cursors.has(token)) token = mint();
      cursors.set(token, Object.freeze({ ...cursor }));
      return token;
    },
    find: (token: string) => cursors.get(token),
  };
}

/**
 * The `token-expiry` scenario's doing: the access token in use on the first call that carries a
 * continuation token expires there (401), and stays refused. Any later token works. When the upstream
 * hands the same access token out again (a replayed cassette does), the client gets an alias of it, so
 * that a fresh token is always distinguishable from the expired one. In every other scenario no token
 * is ever expired, so the guard refuses nothing and rewrites nothing.
 */
function createAccess(seed: string) {
  const expired = new Set<string>();
  const aliases = new Map<string, string>();
  let done = false;
  let counter = 0;
  const tokenOf = (authorization: string) =>
    /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? authorization;
  return {
    /** Whether this `Authorization` header is refused (an expired token). */
    refuses: (authorization: string) => expired.has(tokenOf(authorization)),
    /** Expires the token of this header, once per run. True when it did (the gate then answers 401). */
    expireOnce(authorization: string): boolean {
      if (done) return false;
      done = true;
      expired.add(tokenOf(authorization));
      return true;
    },
    /** The header to send upstream (aliases resolved). */
    upstreamAuthorization(authorization: string): string {
      const upstream = aliases.get(tokenOf(authorization));
      return upstream === undefined ? authorization : `Bearer ${upstream}`;
    },
    /** Rewrites a token endpoint's JSON answer when it repeats an expired access token. */
    issued(body: unknown): unknown {
      if (typeof body !== "object" || body === null) return body;
      const access = (body as Record<string, unknown>).access_token;
      if (typeof access !== "string" || !expired.has(access)) return body;
      counter += 1;
      const alias = createHmac("sha256", seed).update(`alias:${counter}:${access}`).digest("base64url");
      aliases.set(alias, access);
      return { ...body, access_token: alias };
    },
  };
}

/**
 * A scenario's refusals, answered in order on mid-crawl calls, each once the previous one was cured by a
 * page served. A 429 holds for every API call until the moment its `Retry-After` names (less
 * `RETRY_SLACK_MS`); a call before it
 * gets 429 again, with a fresh `Retry-After` of the same form, as a rate limiter does.
 */
/** What a 429 asks in seconds; the HTTP-date form names a whole second between 0.5 and 1.5 s ahead. */
const RETRY_AFTER_SECONDS = 1;

function rateLimit(form: Fault, now: number): { until: number; retryAfter: string } {
  if (form === "rate-limit-date") {
    const until = Math.ceil((now + 500) / 1000) * 1000;
    return { until, retryAfter: new Date(until).toUTCString() };
  }
  return { until: now + RETRY_AFTER_SECONDS * 1000, retryAfter: String(RETRY_AFTER_SECONDS) };
}

function createFaultSchedule(faults: readonly Fault[]) {
  const queue = [...faults];
  let armed = true;
  let limit: { form: Fault; until: number } | undefined;
  const limited = (form: Fault, now: number) => {
    const { until, retryAfter } = rateLimit(form, now);
    limit = { form, until };
    return { kind: "rate-limited", retryAfter } as const;
  };
  return {
    /** The refusal for a call arriving `now`, if any; `midCrawl`: a listing call carrying a continuation token. */
    refusal(now: number, midCrawl: boolean) {
      if (limit && now < limit.until - RETRY_SLACK_MS) return limited(limit.form, now);
      if (!midCrawl || !armed) return undefined;
      const fault = queue.shift();
      if (fault === undefined) return undefined;
      armed = false;
      if (fault === "unavailable" || fault === "connection-reset")
        return { kind: fault, retryAfter: undefined };
      return limited(fault, now);
    },
    /** A listing page was served: the next refusal may come. */
    served() {
      armed = true;
    },
  };
}

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

/**
 * Serves part of an upstream page: the entries from `cursor.skip`, at most as many as the scenario's cut
 * allows, with a token of the gate's own that leads to the rest (the same upstream page further on, or
 * the upstream's next page). An empty upstream page ends the crawl and gets the scenario's final token.
 * `body` is the upstream's JSON answer, `cursor` the request's (the first page's, for a call without a
 * token), `sentToken` the token the client sent, decoded once (`undefined` on a first call). Returns
 * `undefined` when the body is not a page (no result array): it is then passed on untouched.
 */
function cutPage(
  ctx: LayerContext,
  body: unknown,
  resultArray: "data" | "items",
  cursor: Cursor,
  sentToken: string | undefined,
): { body: Record<string, unknown>; page: PageSeen } | undefined {
  const { scenario } = ctx.options;
  const read = readPage(body, resultArray);
  if (!read.ok) return undefined;
  const remaining = read.entries.slice(cursor.skip);
  const served = remaining.slice(0, pageLimit(scenario.pages, cursor.pageIndex) ?? remaining.length);
  let token: string | undefined;
  if (served.length > 0) {
    const next: Cursor | undefined =
      served.length < remaining.length
        ? { ...cursor, skip: cursor.skip + served.length, pageIndex: cursor.pageIndex + 1 }
        : read.token !== undefined
          ? { ...cursor, upstreamToken: read.token, skip: 0, pageIndex: cursor.pageIndex + 1 }
          : undefined;
    token = next ? ctx.cursors.issue(next) : undefined;
  } else if (scenario.finalToken !== "absent") {
    // `echo` hands back the token just sent; `fresh` (and `echo` on a first call) a new one.
    token = (scenario.finalToken === "echo" ? sentToken : undefined) ?? ctx.cursors.issue(cursor);
  }

  const pagination: Record<string, unknown> = { ...(read.pagination ?? {}), pageIndex: cursor.pageIndex };
  if (token === undefined) delete pagination.continuationToken;
  else pagination.continuationToken = token;
  return {
    body: { ...(body as Record<string, unknown>), [resultArray]: served, pagination },
    page: {
      entries: served.length,
      token,
      pageSize: numberOrUndefined(pagination.pageSize),
      pageIndex: cursor.pageIndex,
      totalCount: numberOrUndefined(pagination.totalCount),
      totalPages: numberOrUndefined(pagination.totalPages),
    },
  };
}

/** The upstream's answer, read whole. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/**
 * Sends one request upstream (`target` is a raw path and query, sent as is after the upstream URL's own
 * path, over http or https) and reads the whole answer.
 */
export function forward(
  upstream: string,
  method: string,
  target: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  const base = new URL(upstream);
  const request = base.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname.replace(/^\[|\]$/g, ""),
        port: base.port,
        method,
        path: `${base.pathname.replace(/\/+$/, "")}${target}`,
        headers: { ...headers, "accept-encoding": "identity", "content-length": String(body.length) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer from ${upstream} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The answer's JSON, its body decoded from its `content-encoding` (gzip, deflate, br), or `undefined`
 * for an unknown coding or bytes that do not decode or parse: the layer then passes the answer on untouched.
 */
async function jsonOf(answer: UpstreamAnswer): Promise<unknown> {
  const header = answer.headers["content-encoding"];
  const bytes = await decodedBytes(answer.body, Array.isArray(header) ? header.join(", ") : header);
  try {
    return bytes === undefined ? undefined : (JSON.parse(bytes.toString("utf8")) as unknown);
  } catch {
    return undefined;
  }
}

/** A JSON answer made by the gate itself. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  if (res.headersSent) return;
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(bytes.length),
  });
  res.end(bytes);
}

export const errors = (code: string, message: string) => ({ errors: [{ code, message }] });

/**
 * The status and body the gate answers for each of its reasons: in the service's own shapes, except a
 * request body over the layer's limit, which gets the project's 413 problem (the service states no limit).
 * `rate-limited` takes its `Retry-After` as `detail`; `connection-reset` closes the connection
 * unanswered (no status).
 */
export function sendGateAnswer(res: ServerResponse, reason: GateAnswer, detail = ""): number | undefined {
  const json = (status: number, body: unknown, headers?: Record<string, string>) => {
    sendJson(res, status, body, headers);
    return status;
  };
  switch (reason) {
    case "unknown-token":
      return json(400, {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "One or more validation errors occurred.",
        status: 400,
        errors: { continuationToken: [`The continuationToken is not valid: ${detail}.`] },
      });
    case "expired-access-token":
      return json(401, errors("Unauthorized", "The access token has expired: ask for a new one."), {
        "www-authenticate": 'Bearer error="invalid_token", error_description="expired"',
      });
    case "request-budget":
      return json(
        503,
        errors("RequestBudgetSpent", `assopay gate: ${detail}; the command is being stopped.`),
      );
    case "upstream-failed":
      return json(502, errors("BadGateway", `assopay gate: ${detail}`));
    case "malformed-request":
      if (!res.headersSent) res.writeHead(400, { "content-length": "0", connection: "close" }).end();
      return 400;
    case "body-too-large":
      refuseTooLarge(res, "Request body too large", `assopay gate: ${detail}`);
      return 413;
    case "rate-limited":
      return json(429, errors("TooManyRequests", "Too many requests: retry after the delay given."), {
        "retry-after": detail,
      });
    case "unavailable":
      return json(503, errors("ServiceUnavailable", "The service is unavailable: try again."));
    case "connection-reset":
      res.socket?.resetAndDestroy();
      return undefined;
  }
}

/**
 * A request the HTTP parser refused (a raw space in the target …) is still the client's request: it
 * is recorded from the raw bytes of its request line, then answered 400, as the service would.
 */
export function recordMalformed(
  contract: Contract,
  traffic: LayerContext["traffic"],
  error: Error & { rawPacket?: Buffer },
  socket: Socket,
): void {
  const line = error.rawPacket?.toString("latin1").split("\r\n")[0] ?? "";
  const parts = line.split(" ");
  if (parts.length >= 3) {
    const method = parts[0]?.toUpperCase() ?? "GET";
    const rawUrl = parts.slice(1, -1).join(" ");
    const { route, listingKey, token } = requestFacts(contract, method, rawUrl);
    const seq = traffic.begin({ method, rawUrl, headers: {}, route, listingKey, token, authorization: "" });
    if (seq !== undefined)
      traffic.finish(seq, { status: 400, madeBy: "gate", reason: "malformed-request", at: Date.now() });
  }
  if (socket.writable)
    socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  else socket.destroy();
}

function reply(res: ServerResponse, answer: UpstreamAnswer, body?: Buffer): void {
  const headers = endToEndHeaders(answer.headers);
  const bytes = body ?? answer.body;
  if (body) delete headers["content-encoding"];
  res.writeHead(answer.status, { ...headers, "content-length": String(bytes.length) });
  res.end(bytes);
}

async function serve(ctx: LayerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { options } = ctx;
  const method = (req.method ?? "GET").toUpperCase();
  const rawUrl = req.url ?? "/";
  // The intercept preload's note of the origin meant: for the layer only, never recorded nor forwarded.
  delete req.headers[INTERCEPTED_HEADER];
  const { match, route, listingKey, path, query, tokenParam, token } = requestFacts(
    options.contract,
    method,
    rawUrl,
  );
  const authorization = String(req.headers.authorization ?? "");
  const seq = ctx.traffic.begin({
    method,
    rawUrl,
    headers: { ...req.headers },
    route,
    listingKey,
    token,
    authorization,
  });
  const body = await readBody(req, LAYER_MAX_BODY_BYTES);
  if (seq === undefined) {
    sendGateAnswer(res, "request-budget", `the request budget of ${options.maxRequests} is spent`);
    if (!ctx.budgetReported) {
      ctx.budgetReported = true;
      options.onBudgetSpent();
    }
    return;
  }
  // Stamped before the answer is written: a client cannot have read it earlier.
  const gateAnswer = (reason: GateAnswer, detail?: string) =>
    ctx.traffic.finish(seq, {
      at: Date.now(),
      status: sendGateAnswer(res, reason, detail),
      madeBy: "gate",
      reason,
      retryAfter: reason === "rate-limited" ? detail : undefined,
    });
  if (!body.ok)
    return gateAnswer("body-too-large", tooLargeDetail("request", LAYER_MAX_BODY_BYTES, body.length));
  if (route && route.id !== "token" && ctx.access.refuses(authorization))
    return gateAnswer("expired-access-token");

  let cursor: Cursor | undefined;
  let target = rawUrl;
  if (listingKey !== undefined) {
    if (token) {
      cursor = ctx.cursors.find(token.decoded);
      if (!cursor || cursor.listingKey !== listingKey) {
        const why = cursor ? "it belongs to another listing" : "it is not a token this service issued";
        return gateAnswer("unknown-token", why);
      }
      if (options.scenario.expireOnce && ctx.access.expireOnce(authorization))
        return gateAnswer("expired-access-token");
    } else {
      cursor = { listingKey, upstreamToken: undefined, skip: 0, pageIndex: 1 };
    }
    if (tokenParam) {
      const rewritten = replaceParam(query, tokenParam, cursor.upstreamToken);
      target = rewritten === "" ? path : `${path}?${rewritten}`;
    }
  }
  if (route && route.id !== "token") {
    const refusal = ctx.faults.refusal(Date.now(), token !== undefined && listingKey !== undefined);
    if (refusal) return gateAnswer(refusal.kind, refusal.retryAfter);
  }

  const headers = endToEndHeaders(req.headers);
  if (authorization !== "") headers.authorization = ctx.access.upstreamAuthorization(authorization);
  let answer: UpstreamAnswer;
  try {
    const sent = route?.id === "token" && options.tokenBody ? options.tokenBody(body.bytes) : body.bytes;
    answer = await forward(options.upstream, method, target, headers, sent, options.upstreamTimeoutMs);
  } catch (error) {
    const detail = `the upstream ${options.upstream} failed: ${(error as Error).message}`;
    return gateAnswer("upstream-failed", detail);
  }

  // The answer the layer rewrites: a repeated expired access token, or a listing page cut its way.
  let rewritten: { body: unknown; page?: PageSeen } | undefined;
  if (route?.id === "token" && answer.status === 200) {
    const parsed = await jsonOf(answer);
    const issued = ctx.access.issued(parsed);
    if (issued !== parsed) rewritten = { body: issued };
  } else if (cursor && match?.route.pagination && answer.status >= 200 && answer.status < 300) {
    const { resultArray } = match.route.pagination;
    rewritten = cutPage(ctx, await jsonOf(answer), resultArray, cursor, token?.decoded);
    if (rewritten) ctx.faults.served();
  }
  ctx.traffic.finish(seq, {
    at: Date.now(),
    status: answer.status,
    madeBy: "upstream",
    page: rewritten?.page,
    retryAfter: rewritten ? undefined : firstHeader(answer.headers, "retry-after"),
  });
  reply(res, answer, rewritten && Buffer.from(JSON.stringify(rewritten.body), "utf8"));
}

/**
 * Starts the scenario layer in front of an upstream (sandbox or replay): it records every request as
 * received, re-cuts listing pages and re-issues continuation tokens the scenario's way (mapping them
 * back to the upstream's own), and answers the scenario's 401 once.
 *
 * @example
 * const layer = await startScenarioLayer({ upstream: sandbox.url, scenario, contract, maxRequests: 500,
 *   seed: "uniform", upstreamTimeoutMs: 10_000, onBudgetSpent: () => command.stop("request-budget") });
 */
export async function startScenarioLayer(options: LayerOptions) {
  const ctx = layerContext(options);
  // The command under test reaches the layer on 127.0.0.1 (or by a name allowed); no web page may.
  const guard = createLocalGuard({ what: "gate's scenario layer", allowHosts: options.allowHosts });
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, "cross-site")) return;
    serve(ctx, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errors("GateFailed", String(error)));
      else res.destroy();
    });
  });
  server.on("clientError", (error: Error & { rawPacket?: Buffer }, socket: Socket) =>
    recordMalformed(options.contract, ctx.traffic, error, socket),
  );
  const running = await startServer(server, { what: "gate's scenario layer" });
  return {
    url: running.url,
    exchanges: () => ctx.traffic.exchanges(),
    /** Whether the command asked for more than the request budget. */
    get budgetSpent() {
      return ctx.traffic.exhausted;
    },
    close: running.close,
  };
}

/** A running scenario layer: a transforming reverse proxy that records every request. */
export type RunningLayer = Awaited<ReturnType<typeof startScenarioLayer>>;
