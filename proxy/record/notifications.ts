import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import { endToEndHeaders } from "../../core/http/headers.js";
import { problem, sendProblem } from "../../core/http/problem.js";
import type { ProxyEventSink } from "../events.js";
import { readBodyOrRefuse, tooLargeDetail } from "../http/body.js";
import type { CapturedExchange } from "./capture.js";

/** Whether a request target is the notification path or below it. */
export function isNotificationPath(url: string | undefined, path: string): boolean {
  if (!url) return false;
  const pathname = url.split("?")[0] ?? "";
  return pathname === path || pathname.startsWith(`${path}/`);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function send(
  target: URL,
  method: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
  limit: number,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = (target.protocol === "https:" ? httpsRequest : httpRequest)(
      target,
      { method, headers: { ...headers, "content-length": String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) response.destroy(new Error(tooLargeDetail("response", limit, undefined)));
          else chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on("error", reject);
      },
    );
    call.setTimeout(timeoutMs, () => call.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    call.on("error", reject);
    call.end(body);
  });
}

export interface RelayOptions {
  notificationPath: string;
  notifyForward: URL | undefined;
  maxBodyBytes: number;
  upstreamTimeoutMs: number;
  onEvent: ProxyEventSink;
}

/**
 * Takes a notification the service sent to the proxy, forwards it to the integrator's receiver (when one
 * is configured) and gives the receiver's answer back, so that the service retries exactly when the
 * receiver failed. Without a receiver the proxy answers 204. What is to be recorded goes to `record` before
 * the answer is sent (durability, as for exchanges); when `record` answers false (the journal cannot be
 * written), the connection is cut instead of answered.
 */
export async function relayNotification(
  options: RelayOptions,
  req: IncomingMessage,
  res: ServerResponse,
  record: (notification: CapturedExchange) => boolean,
): Promise<void> {
  const startedAt = new Date();
  const body = await readBodyOrRefuse(req, res, options.maxBodyBytes, "Notification body too large");
  if (!body.ok) {
    options.onEvent({ kind: "refused", message: `notification refused: ${body.detail}` });
    return;
  }
  const recorded = (notification: CapturedExchange, answer: () => void) => {
    if (record(notification)) answer();
    else res.destroy();
  };
  const method = req.method ?? "POST";
  const base = {
    startedAt,
    method,
    url: req.url ?? options.notificationPath,
    requestHeaders: req.headers,
    requestBody: body.bytes,
    notification: true,
  };
  const target = options.notifyForward;
  if (!target) {
    recorded({ ...base, status: 204, responseHeaders: {}, responseBody: Buffer.alloc(0) }, () =>
      res.writeHead(204).end(),
    );
    return;
  }
  const suffix = (req.url ?? "").slice(options.notificationPath.length);
  const forwardUrl = new URL(`${target.pathname.replace(/\/$/, "")}${suffix}`, target);
  const shown = `${forwardUrl.origin}${forwardUrl.pathname}`;
  let answer: Answer;
  try {
    answer = await send(
      forwardUrl,
      method,
      endToEndHeaders(req.headers),
      body.bytes,
      options.maxBodyBytes,
      options.upstreamTimeoutMs,
    );
  } catch (error) {
    const detail = `the notification receiver ${shown} failed: ${(error as Error).message}`;
    const failure = problem("notification-forward-failed", 502, "Notification receiver failed", detail);
    options.onEvent({ kind: "upstream-error", message: detail });
    recorded(
      {
        ...base,
        status: 502,
        responseHeaders: { "content-type": "application/problem+json" },
        responseBody: Buffer.from(JSON.stringify(failure)),
        forwardedTo: shown,
        forwardError: (error as Error).message,
      },
      () => sendProblem(res, failure),
    );
    return;
  }
  const headers = endToEndHeaders(answer.headers);
  recorded(
    {
      ...base,
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.body,
      forwardedTo: shown,
      forwardStatus: answer.status,
    },
    () => {
      res.writeHead(answer.status, { ...headers, "content-length": answer.body.length });
      res.end(answer.body);
    },
  );
}
