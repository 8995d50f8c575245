import { stat } from "node:fs/promises";
import { type ClientRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { Readable } from "node:stream";
import httpProxy from "http-proxy";
import { tooLargeDetail } from "../../core/http/body.js";
import { type Problem, type ProblemKind, problem, sendProblem } from "../../core/http/problem.js";
import type { ProxyEventSink } from "../events.js";
import { MAX_BODY_REMEDY } from "../options.js";
import { BoundedCapture, type CapturedBody, type CapturedExchange } from "./capture.js";

/** The error a timed-out upstream request is destroyed with. */
export class UpstreamTimeout extends Error {
  readonly code = "UPSTREAM_TIMEOUT";
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** Why the upstream failed, in words, from a Node.js network or parser error. */
function cause(error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  if (code === "ECONNREFUSED") return "refused the connection (ECONNREFUSED)";
  if (code === "ECONNRESET" || code === "EPIPE" || error.message === "socket hang up") {
    return `reset the connection (${code || "socket hang up"})`;
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `cannot be resolved (${code})`;
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return `cannot be reached (${code})`;
  if (code.startsWith("HPE_")) return `answered with something that is not HTTP (${code}: ${error.message})`;
  if (code.startsWith("ERR_TLS") || code.includes("CERT"))
    return `failed the TLS handshake (${code}: ${error.message})`;
  return `failed: ${error.message}${code ? ` (${code})` : ""}`;
}

/** A problem naming the upstream that failed: 502 (`upstream-bad-response` unless said) with `detail`. */
function failed(
  upstream: URL,
  detail: string,
  type: ProblemKind = "upstream-bad-response",
  status = 502,
): Problem {
  const title = status === 504 ? "Upstream timed out" : "Upstream failed";
  return problem(type, status, title, detail, { upstream: upstream.href });
}

/**
 * The problem a client gets when the upstream fails: 504 for a timeout, 502 for everything else, naming
 * the upstream and the cause.
 */
export function upstreamProblem(error: Error, upstream: URL, timeoutMs: number): Problem {
  if (error instanceof UpstreamTimeout) {
    const detail = `the upstream ${upstream.origin} sent nothing for ${timeoutMs} ms; nothing was recorded`;
    return failed(upstream, detail, "upstream-timeout", 504);
  }
  const detail = `the upstream ${upstream.origin} ${cause(error as NodeJS.ErrnoException)}; nothing was recorded`;
  return failed(upstream, detail, "upstream-unreachable");
}

/**
 * The problem a client gets when the upstream's final status cannot be a final HTTP status (outside
 * 200–599, except 100 which Node.js reports only as `continue`): 502, nothing recorded. A cassette could
 * not hold it (its schema allows 100–599) and Node.js could not send it on (RangeError below 100).
 */
export function badStatusProblem(status: number | undefined, upstream: URL): Problem | undefined {
  if (status !== undefined && Number.isInteger(status) && status >= 200 && status <= 599) return undefined;
  if (status === 100) return undefined;
  return failed(
    upstream,
    `the upstream ${upstream.origin} answered with status ${status ?? "(none)"}, which is not a final HTTP status (100, 200–599); nothing was recorded`,
  );
}

/** The share of the bound at which the recorder warns that the cassette is nearly full. */
const WARN_AT = 0.8;

/** How often, at most, the cassette's size on disk is looked at again (milliseconds). */
const LOOK_EVERY_MS = 200;

/** Where a cassette stands against its bound. */
type Standing = "room" | "nearly-full" | "full";

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The bound on the cassette's size: watches a cassette's size on disk against `--max-cassette-bytes`.
 * The size is read again at most every {@link LOOK_EVERY_MS} ms, in the background, when requests come,
 * so checking costs nothing on the hot path; the file can therefore pass the bound by what is recorded in
 * that time. At 80% of the bound the recorder warns once; at the bound it stops recording: every new
 * request gets a 507 problem (nothing is forwarded, nothing is written) and the recorder says so once.
 * Start a new cassette to go on. What is recorded but not yet in the cassette (`pending`: the recording
 * worker's backlog) counts too (under load the cassette lags behind the journal), and only that: the
 * journal keeps what is already converted until the recorder is idle, and counting it would stop a long
 * recording at about half its bound.
 *
 * @example
 * const budget = createCassetteBudget("recordings/crawl.yaml", 268_435_456, console.error, () => 0);
 * const refused = budget.refusal(); // undefined while the cassette has room
 */
export function createCassetteBudget(
  cassette: string,
  maxBytes: number,
  onEvent: ProxyEventSink,
  pending: () => number,
) {
  let standing: Standing = "room";
  let lookedAt = 0;
  let looking = false;

  const judge = (size: number) => {
    const next: Standing = size >= maxBytes ? "full" : size >= maxBytes * WARN_AT ? "nearly-full" : "room";
    if (next === standing) return;
    const previous = standing;
    standing = next;
    if (next === "nearly-full" && previous === "room") {
      onEvent({
        kind: "warning",
        message: `the cassette ${cassette} is at ${mib(size)}, ${Math.round((size / maxBytes) * 100)}% of --max-cassette-bytes (${mib(maxBytes)}): at the bound the recorder stops recording; start a new cassette soon`,
      });
    } else if (next === "full") {
      onEvent({
        kind: "warning",
        message: `the cassette ${cassette} reached --max-cassette-bytes (${mib(size)} of ${mib(maxBytes)}): recording stopped; new requests get 507 and are not forwarded. Stop the recorder and record on into a new cassette (--cassette OTHER.yaml), or raise --max-cassette-bytes`,
      });
    }
  };

  const look = () => {
    const now = Date.now();
    if (looking || now - lookedAt < LOOK_EVERY_MS) return;
    looking = true;
    lookedAt = now;
    stat(cassette).then(
      (info) => {
        looking = false;
        judge(info.size + pending());
      },
      () => {
        looking = false;
      },
    );
  };

  return {
    /** The problem to answer a new request with once the cassette is full; undefined while there is room. */
    refusal(): Problem | undefined {
      look();
      if (standing !== "full") return undefined;
      return problem(
        "cassette-full",
        507,
        "Cassette full",
        `the cassette reached --max-cassette-bytes (${maxBytes} bytes); this request was not forwarded or recorded`,
        { cassette, maxCassetteBytes: maxBytes },
      );
    },
  };
}

/** What became of one forwarded request: a complete exchange to record, or a failure already answered. */
export type ForwardOutcome = { ok: true; exchange: CapturedExchange<CapturedBody> } | { ok: false };

/**
 * Called once per request with what became of it. For a complete exchange it answers whether it was
 * recorded: `false` (the journal could not be written) cuts the client's response off before its last
 * bytes, so that no client holds a whole response the recording lacks. Its answer for a failure is ignored.
 */
export type Done = (outcome: ForwardOutcome) => boolean;

/** Streams requests to the one upstream and responses back, keeping a bounded copy of both bodies. */
export interface Forwarder {
  /**
   * Forwards one request and calls `done` once, when the exchange is complete (to be recorded) or has
   * failed (already answered). `buffered` is the request body when it was already read (mode `new`).
   */
  forward(req: IncomingMessage, res: ServerResponse, done: Done, buffered?: Buffer): void;
  /** Closes the pooled upstream connections. */
  close(): void;
}

export interface ForwarderOptions {
  upstream: URL;
  /** The cassette being written, and the bound on its size (see `createCassetteBudget`); no bound without them. */
  cassette?: string;
  maxCassetteBytes?: number;
  /** Bytes recorded but not yet in the cassette, counted against the bound. */
  pending?: () => number;
  maxBodyBytes: number;
  upstreamTimeoutMs: number;
  onEvent: ProxyEventSink;
}

/** The messages of one exchange carry it under this key (cheaper for the GC than a WeakMap). */
const EXCHANGE = Symbol("assopay.exchange");

type Tagged<T> = T & { [EXCHANGE]?: Exchange };

/** One request in flight: its captures and what has happened so far. */
class Exchange {
  readonly startedAt = new Date();
  readonly request: BoundedCapture;
  readonly response: BoundedCapture;
  proxyReq: ClientRequest | undefined;
  proxyRes: IncomingMessage | undefined;
  upstreamEnded = false;
  /** The response's declared `content-length`, if any. */
  expected = Number.NaN;
  abortUpstream = false;
  settled = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly done: Done,
    limit: number,
  ) {
    this.request = new BoundedCapture(limit);
    this.response = new BoundedCapture(limit);
  }
}

function exchangeOf(message: object): Exchange | undefined {
  return (message as Tagged<object>)[EXCHANGE];
}

/**
 * The forwarding half of the recorder, on http-proxy with a keep-alive agent. The client's response is
 * streamed as it arrives; the copy for the cassette is handed over once the upstream's response has ended.
 * Listeners are shared by all exchanges (no closures per request): each finds its exchange on `this`.
 */
export function createForwarder(options: ForwarderOptions): Forwarder {
  const { upstream, maxBodyBytes: limit, upstreamTimeoutMs: timeoutMs, onEvent } = options;
  const budget =
    options.cassette === undefined || options.maxCassetteBytes === undefined
      ? undefined
      : createCassetteBudget(
          options.cassette,
          options.maxCassetteBytes,
          onEvent,
          options.pending ?? (() => 0),
        );
  const agent =
    upstream.protocol === "https:" ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const proxy = httpProxy.createProxyServer({
    target: upstream.href,
    changeOrigin: true,
    agent,
    xfwd: false,
  });

  const fail = (x: Exchange, answer: Problem, kind: "upstream-error" | "refused") => {
    if (x.settled) return;
    x.settled = true;
    onEvent({ kind, message: `${x.req.method} ${x.req.url} → ${answer.status}: ${answer.detail}` });
    sendProblem(x.res, answer);
    x.done({ ok: false });
  };

  const responseTooLarge = (length: number | undefined) =>
    problem(
      "body-too-large",
      502,
      "Upstream response too large",
      tooLargeDetail("response", limit, length, MAX_BODY_REMEDY),
      { upstream: upstream.href },
    );

  const requestTooLarge = (x: Exchange, length: number | undefined) => {
    x.abortUpstream = true;
    x.proxyReq?.destroy();
    x.res.setHeader("connection", "close");
    const detail = tooLargeDetail("request", limit, length, MAX_BODY_REMEDY);
    fail(x, problem("body-too-large", 413, "Request body too large", detail), "refused");
  };

  const complete = (x: Exchange) => {
    const proxyRes = x.proxyRes;
    if (x.settled || !proxyRes || !x.upstreamEnded) return;
    x.settled = true;
    const recorded = x.done({
      ok: true,
      exchange: {
        startedAt: x.startedAt,
        method: x.req.method ?? "GET",
        url: x.req.url ?? "/",
        requestHeaders: x.req.headers,
        requestBody: x.request.parts(),
        status: proxyRes.statusCode ?? 502,
        responseHeaders: proxyRes.headers,
        responseBody: x.response.parts(),
      },
    });
    if (!recorded) {
      // Called before the last bytes are passed on: the client never holds the whole response.
      proxyRes.destroy();
      x.res.destroy();
    }
  };

  function onTimeout(this: Tagged<ClientRequest>) {
    const x = exchangeOf(this);
    if (x && !x.settled) this.destroy(new UpstreamTimeout(timeoutMs));
  }
  function onRequestData(this: Tagged<IncomingMessage>, chunk: Buffer) {
    const x = exchangeOf(this);
    if (!x || x.request.push(chunk) || x.settled) return;
    this.unpipe();
    this.resume();
    requestTooLarge(x, undefined);
  }
  function onResponseData(this: Tagged<IncomingMessage>, chunk: Buffer) {
    const x = exchangeOf(this);
    if (!x) return;
    if (x.response.push(chunk)) {
      // The last byte of a response of declared length: once passed on, the client holds the whole
      // response, so the exchange is recorded (journaled) before it is (durability, see journal.ts).
      if (x.response.length === x.expected && x.req.complete && x.req.readableLength === 0) {
        x.upstreamEnded = true;
        complete(x);
      }
      return;
    }
    if (x.settled) return;
    this.destroy();
    fail(x, responseTooLarge(undefined), "refused");
  }
  // Registered before http-proxy's pipe: the copy is complete and the last bytes are about to be handed
  // to the client; recording starts now rather than when the socket reports them written.
  function onResponseEnd(this: Tagged<IncomingMessage>) {
    const x = exchangeOf(this);
    if (!x) return;
    x.upstreamEnded = true;
    complete(x);
  }
  function onResponseClose(this: Tagged<IncomingMessage>) {
    const x = exchangeOf(this);
    if (!x || x.upstreamEnded || x.settled) return;
    const detail = `the upstream ${upstream.origin} closed the connection in the middle of the response body; nothing was recorded`;
    fail(x, failed(upstream, detail), "upstream-error");
  }
  // A 101 is not a response http-proxy hands on: without this listener Node.js destroys the socket and
  // the client waits forever. The recorder records plain HTTP exchanges only.
  function onUpgrade(this: Tagged<ClientRequest>, upgraded: IncomingMessage) {
    upgraded.socket.destroy();
    const x = exchangeOf(this);
    const detail = `the upstream ${upstream.origin} answered 101 Switching Protocols; the recorder records plain HTTP exchanges only, nothing was recorded`;
    if (x) fail(x, failed(upstream, detail), "upstream-error");
  }
  function onFinish(this: Tagged<ServerResponse>) {
    const x = exchangeOf(this);
    if (x) complete(x);
  }
  function onClientClose(this: Tagged<ServerResponse>) {
    const x = exchangeOf(this);
    if (!x || x.settled) return;
    x.settled = true;
    onEvent({
      kind: "refused",
      message: `${x.req.method} ${x.req.url}: the client left before the response ended; nothing was recorded`,
    });
    x.done({ ok: false });
  }
  const ignore = () => undefined;

  proxy.on("proxyReq", (proxyReq: Tagged<ClientRequest>, req) => {
    const x = exchangeOf(req);
    if (!x) return;
    x.proxyReq = proxyReq;
    proxyReq[EXCHANGE] = x;
    if (x.abortUpstream) proxyReq.destroy();
    proxyReq.setTimeout(timeoutMs, onTimeout);
    proxyReq.on("upgrade", onUpgrade);
  });

  proxy.on("proxyRes", (proxyRes: Tagged<IncomingMessage>, req) => {
    const x = exchangeOf(req);
    if (!x) return;
    x.proxyRes = proxyRes;
    proxyRes[EXCHANGE] = x;
    proxyRes.on("error", ignore);
    // Answered here, before http-proxy copies the status (a status below 100 throws a RangeError there).
    const badStatus = badStatusProblem(proxyRes.statusCode, upstream);
    if (badStatus) {
      proxyRes.destroy();
      fail(x, badStatus, "upstream-error");
      return;
    }
    const declared = Number(proxyRes.headers["content-length"] ?? Number.NaN);
    x.expected = declared;
    if (declared > limit) {
      proxyRes.destroy();
      fail(x, responseTooLarge(declared), "refused");
      return;
    }
    proxyRes.on("data", onResponseData);
    proxyRes.on("end", onResponseEnd);
    proxyRes.on("close", onResponseClose);
  });

  const forward: Forwarder["forward"] = (req, res, done, buffered) => {
    const x = new Exchange(req, res, done, limit);
    (req as Tagged<IncomingMessage>)[EXCHANGE] = x;
    (res as Tagged<ServerResponse>)[EXCHANGE] = x;
    const full = budget?.refusal();
    if (full) {
      req.resume();
      fail(x, full, "refused");
      return;
    }
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    if (declared > limit) {
      req.resume();
      requestTooLarge(x, declared);
      return;
    }
    res.on("finish", onFinish);
    res.on("close", onClientClose);
    const onError = (error: Error) => fail(x, upstreamProblem(error, upstream, timeoutMs), "upstream-error");
    if (buffered) {
      proxy.web(req, res, { buffer: Readable.from([buffered]) }, onError);
      x.request.push(buffered);
      return;
    }
    // Without per-call options http-proxy keeps using its parsed target; with them it parses it again.
    (proxy.web as (req: IncomingMessage, res: ServerResponse, callback: (error: Error) => void) => void)(
      req,
      res,
      onError,
    );
    req.on("data", onRequestData);
  };

  return {
    forward,
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}
