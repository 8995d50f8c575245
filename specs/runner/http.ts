import { setMaxListeners } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import type { HttpMethod } from "../../contracts/index.js";
import { AssopayError, httpUrl } from "../../core/errors.js";
import { withDeadline } from "./deadline.js";
import { createTransport, type Transport } from "./transport.js";
import type { Evidence, EvidenceRequest } from "./types.js";

/** One request a check sends. The URL is used exactly as given: callers encode its query once. */
export interface HttpRequest {
  method: HttpMethod;
  url: string;
  /** The whole `Authorization` header value (`Bearer …`), absent to send none. */
  authorization?: string;
  headers?: Readonly<Record<string, string>>;
  body?: { contentType: string; text: string };
}

/** A request and its answer, with the body read (gzip and deflate already undone). */
export interface HttpExchange {
  request: EvidenceRequest;
  status: number;
  headers: Headers;
  /** Raw body bytes after content decoding. */
  bytes: Buffer;
  text: string;
  /**
   * When the request first went out and when its (last) answer was in, as moments of its client: a count
   * of events that never stands still or steps back, so that what was asked after an answer came always
   * reads later (wall-clock milliseconds tie, and a clock can be set back). Crawls are ordered by them.
   */
  sentAt: number;
  answeredAt: number;
}

export interface HttpClient {
  /** Throws a `TransportError` when no HTTP answer came (connection refused, reset, timeout). */
  send(request: HttpRequest): Promise<HttpExchange>;
}

/** The client a run makes: it keeps connections alive until it is closed. */
export interface OwnedHttpClient extends HttpClient {
  /** Lets the kept-alive connections go; call it when the run is over. */
  close(): void;
  /** Why it sends no more (a target that kept answering 429), once it does not: the run's end. */
  refusal(): AssopayError | undefined;
}

/** No HTTP answer at all: the target is down or cut the connection. Not a verdict on a rule. */
export class TransportError extends Error {
  /** The request that got no answer, as evidence shows it. */
  readonly request: EvidenceRequest;
  /** True when the target took the connection but did not answer in time. */
  readonly timedOut: boolean;
  constructor(request: EvidenceRequest, cause: unknown) {
    super(`no answer from ${request.url}: ${describeCause(cause)}`, { cause });
    this.name = "TransportError";
    this.request = request;
    this.timedOut = cause instanceof RequestTimeout;
  }
}

/**
 * The target's answer cannot be used as the contract says it can (a URL to follow that is not an
 * http(s) URL, a body of another shape), so the check cannot go on. The target's fault, not verify's:
 * thrown anywhere under a check, the runner makes it that check's failure, with the evidence.
 */
export class UnusableAnswer extends Error {
  readonly evidence: Evidence;
  constructor(reason: string, evidence: Evidence) {
    super(reason);
    this.name = "UnusableAnswer";
    this.evidence = evidence;
  }
}

/** How many of the latest exchanges a client keeps, to name the answer a URL to follow came from. */
const RECENT = 16;

/**
 * A URL that is not an absolute http(s) one came from the target (verify builds its own from the
 * target's address): the latest answer that holds it is named as its source.
 */
function unusableUrl(request: EvidenceRequest, recent: readonly HttpExchange[]): UnusableAnswer {
  const source = recent.findLast((exchange) => exchange.text.includes(request.url));
  const from = source ? ` (from the answer to ${source.request.method} ${source.request.url})` : "";
  const reason = `the target gave "${request.url.slice(0, 120)}"${from} where a URL to follow was expected: it is not an absolute http(s) URL, so the check could not go on`;
  const diagnostics = [`${request.method} ${request.url.slice(0, 120)}: not an absolute http(s) URL`];
  if (!source) return new UnusableAnswer(reason, { request, diagnostics });
  const at = source.text.indexOf(request.url);
  const excerpt = source.text.slice(Math.max(0, at - 200), at + request.url.length + 200);
  return new UnusableAnswer(reason, {
    request: source.request,
    response: { status: source.status, excerpt },
    diagnostics,
  });
}

/** The reason a request was given up: verify's own timer ran out. */
export class RequestTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${formatSeconds(timeoutMs)} (--request-timeout)`);
    this.name = "RequestTimeout";
  }
}

const formatSeconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/**
 * `ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)`: the system's code, then its words. An aborted request
 * arrives here as its signal's reason (verify's timer, the run's limit), never as the abort's own error.
 */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as Error & { code?: string }).code;
  return code ? `${code} (${cause.message})` : cause.message;
}

/** Credentials never reach a report: `Bearer abcdef…` keeps six characters. */
export function maskAuthorization(value: string): string {
  const match = /^(\S+)\s+(.*)$/.exec(value);
  if (!match) return "***";
  const [, scheme, secret = ""] = match;
  return secret.length > 8 ? `${scheme} ${secret.slice(0, 6)}…` : `${scheme} ***`;
}

export interface HttpClientOptions {
  timeoutMs: number;
  signal: AbortSignal;
  userAgent: string;
  /**
   * The target's shape: the checks speak the contract's paths (`{base}/v5/…`), sent as
   * `{base}{apiRoot}/…` (`--api-root`). Absent: every URL goes as given.
   */
  target?: { base: string; apiRoot: string };
  /** What carries the exchanges (default: node:http over kept-alive connections); tests plug in their own. */
  transport?: Transport;
  /** Requests in flight at once per target (origin) at most (verify's `--concurrency`); default 1. */
  concurrency?: number;
}

/** The URL as the target serves it: the contract's `/v5` prefix replaced by the target's API root. */
export function servedUrl(url: string, target: HttpClientOptions["target"]): string {
  if (!target || target.apiRoot === "/v5") return url;
  const prefix = `${target.base}/v5`;
  const rest = url.slice(prefix.length);
  const under = url.startsWith(prefix) && (rest === "" || /^[/?#]/.test(rest));
  return under ? `${target.base}${target.apiRoot}${rest}` : url;
}

/**
 * A client over kept-alive connections: every call, headers and body, bounded by a timer and by the run's
 * abort signal; at most `concurrency` in flight per target, and none while a target's `Retry-After` runs.
 * A 429 is asked again after its `Retry-After`; one that still stands past `RATE_LIMIT` ends the run (an
 * `AssopayError` "rate-limited", thrown by this and every later call): a rate limit is never a verdict.
 */
export function createHttpClient(options: HttpClientOptions): OwnedHttpClient {
  const transport = options.transport ?? createTransport();
  const recent: HttpExchange[] = [];
  const gate = createTargetGate(options.concurrency ?? 1);
  // Every request waiting for its place listens to the run's signal: as many as there are at once.
  setMaxListeners(0, options.signal);
  let moments = 0;
  let limited: AssopayError | undefined;
  return {
    close: () => transport.close(),
    refusal: () => limited,
    async send(asked) {
      const request = { ...asked, url: servedUrl(asked.url, options.target) };
      const headers: Record<string, string> = {
        accept: "application/json",
        "user-agent": options.userAgent,
        ...request.headers,
      };
      const shown: Record<string, string> = { ...request.headers };
      if (request.authorization !== undefined) {
        headers.authorization = request.authorization;
        shown.authorization = maskAuthorization(request.authorization);
      }
      if (request.body) {
        headers["content-type"] = request.body.contentType;
        shown["content-type"] = request.body.contentType;
      }
      const evidence: EvidenceRequest = Object.keys(shown).length
        ? { method: request.method, url: request.url, headers: shown }
        : { method: request.method, url: request.url };
      if (!httpUrl(request.url)) throw unusableUrl(evidence, recent);
      const sentAt = ++moments;
      const once = async (): Promise<HttpExchange> => {
        if (limited) throw limited;
        const leave = await gate.enter(request.url, options.signal).catch((reason: unknown) => {
          throw new TransportError(evidence, reason);
        });
        const bound = withDeadline(
          options.signal,
          options.timeoutMs,
          () => new RequestTimeout(options.timeoutMs),
        );
        try {
          const {
            status,
            headers: answered,
            bytes,
          } = await transport.exchange({
            method: request.method,
            url: request.url,
            headers,
            ...(request.body ? { body: request.body.text } : {}),
            signal: bound.signal,
          });
          // The target asks for quiet before this place is left, so that no request waiting for it starts.
          if (status === 429) gate.pause(request.url, retryAfterMs(answered.get("retry-after")));
          const text = bytes.toString("utf8");
          return { request: evidence, status, headers: answered, bytes, text, sentAt, answeredAt: ++moments };
        } catch (error) {
          throw new TransportError(evidence, bound.signal.aborted ? bound.signal.reason : error);
        } finally {
          bound.done();
          leave();
        }
      };
      for (let waits = 0; ; waits++) {
        const answer = await once();
        if (answer.status === 429) {
          const wait = retryAfterMs(answer.headers.get("retry-after"));
          if (waits < RATE_LIMIT.retries && wait <= RATE_LIMIT.maxWaitMs) continue;
          limited ??= rateLimited(request, answer, waits, wait);
          throw limited;
        }
        recent.push(answer);
        if (recent.length > RECENT) recent.shift();
        return answer;
      }
    },
  };
}

/**
 * The service's rate limit, as real clients meet it: a 429 is asked again after its `Retry-After` (1 s
 * without one), five times at most; a sixth 429, or a wait asked of more than a minute, ends the run.
 */
export const RATE_LIMIT = { retries: 5, defaultWaitMs: 1_000, maxWaitMs: 60_000 } as const;

/** Why the run ends: the target kept answering 429, or asked for a longer wait than verify gives. */
function rateLimited(request: HttpRequest, answer: HttpExchange, waits: number, wait: number): AssopayError {
  const asked = answer.headers.get("retry-after");
  const why =
    wait > RATE_LIMIT.maxWaitMs
      ? `asked verify to wait ${Math.ceil(wait / 1000)} s (Retry-After: ${asked}), more than the ${RATE_LIMIT.maxWaitMs / 1000} s it waits`
      : `still answered 429 Too Many Requests after ${waits} waits of its Retry-After (${asked ?? "none given: 1 s"})`;
  return new AssopayError("rate-limited", `the target ${why}: ${request.method} ${request.url}`, {
    hint: "a rate limit is not a rule verify judges: run it when the target is less busy, or lower --concurrency (1 sends one request at a time)",
  });
}

/** The wait a `Retry-After` value asks for (seconds, or an HTTP date), 1 s without a readable one. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number {
  const text = value?.trim() ?? "";
  const seconds = /^\d+$/.test(text) ? Number(text) * 1000 : undefined;
  const date = seconds === undefined && text !== "" ? Date.parse(text) - now : undefined;
  const wanted = seconds ?? (date !== undefined && Number.isFinite(date) ? date : RATE_LIMIT.defaultWaitMs);
  return Math.max(wanted, 0);
}

/** The body as JSON, or why it is not. */
export const parseJson = (exchange: HttpExchange) => parseJsonText(exchange.text);

/** `2xx`. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Parses text as JSON, or says why it is not. */
function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (text.trim() === "") return { ok: false, why: "the body is empty" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, why: `the body is not JSON (${(error as Error).message})` };
  }
}

/** Parses raw bytes as UTF-8 JSON, or says why they are not. */
export const parseJsonBuffer = (bytes: Buffer) => parseJsonText(bytes.toString("utf8"));

interface Origin {
  active: number;
  /** Waiters for a place, oldest first. */
  queue: (() => void)[];
  /** Epoch ms before which no request starts (0: none asked). */
  quietUntil: number;
}

/**
 * Politeness towards each target (an origin: scheme, host and port): at most `limit` requests in flight
 * (at least 1), and none started while it asked to be left alone (a 429's `Retry-After`). verify's HTTP
 * client passes every request through one gate, so checks may ask at once and the target still sees at
 * most `limit`.
 */
function createTargetGate(limit: number) {
  const places = Math.max(1, Math.floor(limit));
  const origins = new Map<string, Origin>();
  const originOf = (url: string): Origin => {
    const key = URL.canParse(url) ? new URL(url).origin : url;
    let origin = origins.get(key);
    if (!origin) {
      origin = { active: 0, queue: [], quietUntil: 0 };
      origins.set(key, origin);
    }
    return origin;
  };
  return {
    /**
     * Waits for a free place at the URL's origin, past any pause it asked for, and takes it: the place's
     * release. Rejects with the signal's reason when the run stops meanwhile.
     */
    async enter(url: string, signal: AbortSignal): Promise<() => void> {
      const origin = originOf(url);
      for (;;) {
        const quiet = origin.quietUntil - Date.now();
        if (quiet > 0) await delay(quiet, undefined, { signal }).catch(() => Promise.reject(signal.reason));
        else if (origin.active < places) break;
        else {
          await new Promise<void>((resolve, reject) => {
            if (signal.aborted) return reject(signal.reason);
            const wake = () => {
              signal.removeEventListener("abort", stop);
              resolve();
            };
            const stop = () => {
              origin.queue = origin.queue.filter((w) => w !== wake);
              reject(signal.reason);
            };
            origin.queue.push(wake);
            signal.addEventListener("abort", stop, { once: true });
          });
        }
      }
      origin.active++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        origin.active--;
        origin.queue.shift()?.();
      };
    },
    /** The origin asked for `ms` of quiet: no request to it starts before they have passed. */
    pause(url: string, ms: number): void {
      const origin = originOf(url);
      origin.quietUntil = Math.max(origin.quietUntil, Date.now() + ms);
    },
  };
}

const LIMIT = 600;

/** A value as compact JSON, cut to a readable length. */
export function excerptOf(value: unknown, limit = LIMIT): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** Evidence of an exchange: its status and `part` of the response when given, else the body's beginning. */
export function evidenceOf(
  exchange: HttpExchange,
  part?: unknown,
  diagnostics?: readonly string[],
): Evidence {
  const excerpt = excerptOf(part === undefined ? exchange.text : part);
  const evidence: Evidence = { request: exchange.request, response: { status: exchange.status, excerpt } };
  return diagnostics && diagnostics.length > 0 ? { ...evidence, diagnostics } : evidence;
}
