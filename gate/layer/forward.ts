import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { decodedBytes } from "../../core/http/coding.js";

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
 * The body decoded from its `content-encoding` (gzip, deflate, br), or `undefined` for an unknown coding
 * or bytes that do not decode: the layer then passes the answer on untouched.
 */
export function decodedBody(answer: UpstreamAnswer): Promise<Buffer | undefined> {
  const header = answer.headers["content-encoding"];
  return decodedBytes(answer.body, Array.isArray(header) ? header.join(", ") : header);
}
