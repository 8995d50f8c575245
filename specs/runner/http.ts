import type { HttpMethod } from "../../contracts/index.js";
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
}

export interface HttpClient {
  /** Throws a `TransportError` when no HTTP answer came (connection refused, reset, timeout). */
  send(request: HttpRequest): Promise<HttpExchange>;
}

/** The client a run makes: it keeps connections alive until it is closed. */
export interface OwnedHttpClient extends HttpClient {
  /** Lets the kept-alive connections go; call it when the run is over. */
  close(): void;
}

/** No HTTP answer at all: the target is down or cut the connection. Not a verdict on a rule. */
export class TransportError extends Error {
  readonly url: string;
  /** The request that got no answer, as evidence shows it. */
  readonly request: EvidenceRequest;
  /** True when the target took the connection but did not answer in time. */
  readonly timedOut: boolean;
  constructor(request: EvidenceRequest, cause: unknown) {
    super(`no answer from ${request.url}: ${describeCause(cause)}`, { cause });
    this.name = "TransportError";
    this.url = request.url;
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

const isHttpUrl = (url: string) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);

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
 * abort signal.
 */
export function createHttpClient(options: HttpClientOptions): OwnedHttpClient {
  const transport = options.transport ?? createTransport();
  const recent: HttpExchange[] = [];
  return {
    close: () => transport.close(),
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
      if (!isHttpUrl(request.url)) throw unusableUrl(evidence, recent);
      const once = async (): Promise<HttpExchange> => {
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
          return { request: evidence, status, headers: answered, bytes, text: bytes.toString("utf8") };
        } catch (error) {
          throw new TransportError(evidence, bound.signal.aborted ? bound.signal.reason : error);
        } finally {
          bound.done();
        }
      };
      let answer = await once();
      for (let retry = 0; retry < RATE_LIMIT.retries && answer.status === 429; retry++) {
        if (!(await pause(retryAfterMs(answer.headers.get("retry-after")), options.signal))) break;
        answer = await once();
      }
      recent.push(answer);
      if (recent.length > RECENT) recent.shift();
      return answer;
    },
  };
}

/**
 * The service's rate limit, as real clients meet it: a 429 is asked again after its `Retry-After` (1 s
 * without one, at most 10 s), three times at most; a fourth 429 stands, and the check that asked judges it.
 */
export const RATE_LIMIT = { retries: 3, defaultWaitMs: 1_000, maxWaitMs: 10_000 } as const;

/** The wait a `Retry-After` value asks for (seconds, or an HTTP date), bounded by `RATE_LIMIT`. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number {
  const text = value?.trim() ?? "";
  const seconds = /^\d+$/.test(text) ? Number(text) * 1000 : undefined;
  const date = seconds === undefined && text !== "" ? Date.parse(text) - now : undefined;
  const wanted = seconds ?? (date !== undefined && Number.isFinite(date) ? date : RATE_LIMIT.defaultWaitMs);
  return Math.min(Math.max(wanted, 0), RATE_LIMIT.maxWaitMs);
}

/** Waits `ms`; false at once if the run is aborted meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** The body as JSON, or why it is not. */
export function parseJson(exchange: HttpExchange): { ok: true; value: unknown } | { ok: false; why: string } {
  if (exchange.text.trim() === "") return { ok: false, why: "the body is empty" };
  try {
    return { ok: true, value: JSON.parse(exchange.text) as unknown };
  } catch (error) {
    return { ok: false, why: `the body is not JSON (${(error as Error).message})` };
  }
}

/** `2xx`. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
