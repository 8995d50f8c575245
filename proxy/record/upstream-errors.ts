import { type Problem, problem } from "../../core/http/problem.js";

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

/**
 * The problem a client gets when the upstream fails: 504 for a timeout, 502 for everything else, naming
 * the upstream and the cause.
 */
export function upstreamProblem(error: Error, upstream: URL, timeoutMs: number): Problem {
  if (error instanceof UpstreamTimeout) {
    return problem(
      "upstream-timeout",
      504,
      "Upstream timed out",
      `the upstream ${upstream.origin} sent nothing for ${timeoutMs} ms; nothing was recorded`,
      { upstream: upstream.href },
    );
  }
  return problem(
    "upstream-unreachable",
    502,
    "Upstream failed",
    `the upstream ${upstream.origin} ${cause(error as NodeJS.ErrnoException)}; nothing was recorded`,
    { upstream: upstream.href },
  );
}
