import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** The upstream's answer, read whole. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** Headers that belong to one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
]);

/** The headers worth passing on, without hop-by-hop ones. */
export function endToEndHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    out[name] = typeof value === "string" ? value : [...value];
  }
  return out;
}

/** Sends one request upstream (`target` is a raw path and query, sent as is) and reads the whole answer. */
export function forward(
  upstream: string,
  method: string,
  target: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  const base = new URL(upstream);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: target,
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

/** The body decoded from its `content-encoding` (gzip, deflate, br), or `undefined` for an unknown coding. */
export function decodedBody(answer: UpstreamAnswer): Buffer | undefined {
  const coding = String(answer.headers["content-encoding"] ?? "identity").toLowerCase();
  try {
    switch (coding) {
      case "identity":
      case "":
        return answer.body;
      case "gzip":
      case "x-gzip":
        return gunzipSync(answer.body);
      case "deflate":
        return inflateSync(answer.body);
      case "br":
        return brotliDecompressSync(answer.body);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
