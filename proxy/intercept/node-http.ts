import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { createRequire } from "node:module";
import { urlToHttpOptions } from "node:url";
import { type InterceptPlan, intercepts, originOf, withOriginHeader } from "./hosts.js";

// The modules' own objects (what `require` returns and `import` mirrors), whose properties can be replaced.
const load = createRequire(import.meta.url);
const http = load("node:http") as typeof import("node:http");
const https = load("node:https") as typeof import("node:https");

type Callback = (res: IncomingMessage) => void;
type RequestFunction = typeof http.request;

/** Options that belong to the TLS connection the application meant, not to the plain one to the target. */
const TLS_ONLY = [
  "ca",
  "cert",
  "key",
  "pfx",
  "passphrase",
  "servername",
  "rejectUnauthorized",
  "checkServerIdentity",
  "createConnection",
  "socketPath",
  "lookup",
] as const;

/** `request(url, options?, cb?)` or `request(options, cb?)`, as one options object and the callback. */
function normalize(args: unknown[], protocol: string): { options: RequestOptions; callback?: Callback } {
  const [first, second, third] = args;
  if (typeof first === "string" || first instanceof URL) {
    // As Node's own `request` reads a URL: protocol, hostname (without brackets), port, path, auth.
    const fromUrl: RequestOptions = urlToHttpOptions(new URL(first));
    if (typeof second === "function") return { options: fromUrl, callback: second as Callback };
    return {
      options: { ...fromUrl, ...(second as RequestOptions | undefined) },
      callback: third as Callback,
    };
  }
  const options = { protocol, ...(first as RequestOptions | undefined) };
  return { options, callback: second as Callback | undefined };
}

/** The options of a request for a named host, sent to the target over plain http. */
function redirected(plan: InterceptPlan, options: RequestOptions, hostname: string, protocol: string) {
  const port = options.port ?? options.defaultPort;
  const meant = originOf(protocol, hostname, port);
  const headers = withOriginHeader(options.headers, meant) as RequestOptions["headers"];
  const out: RequestOptions = {
    ...options,
    protocol: "http:",
    host: undefined,
    hostname: plan.target.hostname.replace(/^\[|\]$/g, ""),
    port: plan.target.port || 80,
    defaultPort: undefined,
    agent: options.agent === false ? false : undefined,
    headers,
  };
  for (const name of TLS_ONLY) delete (out as Record<string, unknown>)[name];
  // Keep the Host header the application meant, unless it set its own.
  const named = out.headers && !Array.isArray(out.headers) ? Object.keys(out.headers) : [];
  if (!named.some((name) => name.toLowerCase() === "host") && !Array.isArray(out.headers)) {
    out.headers = { ...out.headers, host: new URL(meant).host };
  }
  return out;
}

/** A `request` that sends named hosts to the target through the original `http.request`. */
function wrapRequest(
  plan: InterceptPlan,
  original: RequestFunction,
  plain: RequestFunction,
  protocol: string,
) {
  return ((...args: unknown[]): ClientRequest => {
    const { options, callback } = normalize(args, protocol);
    const hostname = (options.hostname ?? options.host ?? "").replace(/^\[|\]$/g, "");
    if (!intercepts(plan, hostname)) return (original as (...a: unknown[]) => ClientRequest)(...args);
    const to = redirected(plan, options, hostname, options.protocol ?? protocol);
    return callback ? plain(to, callback) : plain(to);
  }) as RequestFunction;
}

/** A `get`: the request, ended. */
function wrapGet(request: RequestFunction): typeof http.get {
  return ((...args: unknown[]) => {
    const req = (request as (...a: unknown[]) => ClientRequest)(...args);
    req.end();
    return req;
  }) as typeof http.get;
}

/**
 * Replaces `request` and `get` of `node:http` and `node:https` (as `require` and `import` see them)
 * with wrappers that send the named hosts to the target over plain http, the Host header and the
 * origin meant kept. Returns the function that puts the originals back.
 */
export function interceptNodeHttp(plan: InterceptPlan): () => void {
  const saved = {
    http: { request: http.request, get: http.get },
    https: { request: https.request as RequestFunction, get: https.get as typeof http.get },
  };
  const plain = saved.http.request;
  const httpRequest = wrapRequest(plan, saved.http.request, plain, "http:");
  const httpsRequest = wrapRequest(plan, saved.https.request, plain, "https:");
  Object.assign(http, { request: httpRequest, get: wrapGet(httpRequest) });
  Object.assign(https, { request: httpsRequest, get: wrapGet(httpsRequest) });
  return () => {
    Object.assign(http, saved.http);
    Object.assign(https, saved.https);
  };
}
