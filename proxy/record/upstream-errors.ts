import { type Problem, type ProblemKind, problem } from "../../core/http/problem.js";

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

/** The problem a client gets when the upstream switches protocols (101): the recorder records HTTP only. */
export function upgradeProblem(upstream: URL): Problem {
  return failed(
    upstream,
    `the upstream ${upstream.origin} answered 101 Switching Protocols; the recorder records plain HTTP exchanges only, nothing was recorded`,
  );
}
