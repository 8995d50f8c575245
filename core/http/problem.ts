import type { ServerResponse } from "node:http";

/** An RFC 9457 problem document: how the project's own servers answer their own errors. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  [extension: string]: unknown;
}

/** Kinds of problem, one per `type` URI (`urn:assopay:problem:<kind>`). */
export type ProblemKind =
  | "no-match"
  | "upstream-unreachable"
  | "upstream-timeout"
  | "upstream-bad-response"
  | "body-too-large"
  | "cassette-full"
  | "recording-stopped"
  | "not-a-reverse-proxy"
  | "notification-forward-failed"
  | "placeholder-not-forwarded"
  | "host-refused"
  | "cross-site-refused"
  | "control-needs-json";

export function problem(
  kind: ProblemKind,
  status: number,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  return { type: `urn:assopay:problem:${kind}`, title, status, detail, ...extensions };
}

/**
 * Answers with a problem document. When the response has already started (a failure in the middle of a
 * streamed body), the connection is cut instead: the client sees an incomplete response, never a
 * complete-looking one.
 */
export function sendProblem(res: ServerResponse, body: Problem, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(body.status, {
    ...headers,
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
