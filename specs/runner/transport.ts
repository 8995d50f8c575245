import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { type ContentCoding, contentCoding, decompress } from "../../core/http/coding.js";

/** What one exchange needs to go out: the URL as given, every header, the body's text. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** The answer, with its content coding undone, as `fetch` would hand it over. */
export interface Incoming {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Keep-alive connections to the targets of one run, and the way to let them go. */
export interface Transport {
  exchange(outgoing: Outgoing): Promise<Incoming>;
  /** Closes the connections kept alive; call it when the run is over. */
  close(): void;
}

/** The codings `fetch` asks for and undoes; this transport does the same, so targets see no change. */
const ACCEPTED_CODINGS = "gzip, deflate, br";

/**
 * How long an idle connection is kept: under the 5 s after which a Node server (the sandbox, most mocks)
 * closes one, so that a request seldom goes out on a connection the server is closing.
 */
const IDLE_MS = 4_000;

/** Methods a server may receive twice without harm: the only ones sent again (RFC 9110, 9.2.2). */
const IDEMPOTENT: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * node:http under verify's requests. `fetch` (undici) cost about 160 µs of CPU more per request, both
 * sides on one machine, than node:http with keep-alive (bench/history/performance-log.md, "verify's requests"):
 * a fifth of a verify run against the sandbox. What the checks see is unchanged: the URL as given, no
 * redirect followed, gzip, deflate and br undone, the response headers as a `Headers`.
 *
 * @example
 * const transport = createTransport();
 * try { const answer = await transport.exchange({ method: "GET", url, headers: {}, signal }); }
 * finally { transport.close(); }
 */
export function createTransport(): Transport {
  const plain = new HttpAgent({ keepAlive: true, timeout: IDLE_MS });
  const secure = new HttpsAgent({ keepAlive: true, timeout: IDLE_MS });
  const send = (outgoing: Outgoing, url: URL, headers: Record<string, string>, retry: boolean) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const options = { method: outgoing.method, headers, signal: outgoing.signal };
      const request =
        url.protocol === "https:"
          ? httpsRequest(url, { ...options, agent: secure }, resolve)
          : httpRequest(url, { ...options, agent: plain }, resolve);
      request.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as this request went out: sent again, once, on a new one.
        const closed = error.code === "ECONNRESET" || error.code === "EPIPE";
        if (retry && closed && request.reusedSocket && !outgoing.signal.aborted) {
          resolve(send(outgoing, url, headers, false));
        } else reject(error);
      });
      request.end(outgoing.body);
    });
  return {
    async exchange(outgoing) {
      const url = new URL(outgoing.url);
      const headers: Record<string, string> = { "accept-encoding": ACCEPTED_CODINGS, ...outgoing.headers };
      if (outgoing.body !== undefined) headers["content-length"] = String(Buffer.byteLength(outgoing.body));
      const response = await send(outgoing, url, headers, IDEMPOTENT.has(outgoing.method.toUpperCase()));
      const raw = await bodyOf(response);
      return {
        status: response.statusCode ?? 0,
        headers: headersOf(response.rawHeaders),
        bytes: await decoded(raw, response.headers["content-encoding"]),
      };
    },
    close() {
      plain.destroy();
      secure.destroy();
    },
  };
}

/**
 * The body's bytes, or the error that cut it off. Not `stream/consumers`' `buffer`: on Node 20 it goes
 * through a `Blob`, which cost 4% of a verify run's CPU.
 */
function bodyOf(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    response.on("data", (part: Buffer) => parts.push(part));
    response.on("end", () => resolve(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)));
    response.on("error", reject);
    response.on("close", () => {
      if (!response.complete) reject(new Error("the connection closed before the body's end"));
    });
  });
}

function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/** The body with every coding undone, last applied first; as it came when one of them is not ours. */
async function decoded(bytes: Buffer, header: string | undefined): Promise<Buffer> {
  if (bytes.length === 0) return bytes; // a 204, a 304 or a HEAD: nothing to undo
  const names = (header ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && name.toLowerCase() !== "identity");
  const codings = names.map((name) => contentCoding(name));
  if (codings.some((coding) => coding === undefined)) return bytes;
  let body = bytes;
  for (const coding of (codings as ContentCoding[]).reverse()) {
    body = await decompress(body, coding).catch((error: Error) => {
      throw new Error(`the body does not decode as ${coding}: ${error.message}`);
    });
  }
  return body;
}
