/**
 * The last line of the preload: every Node client ends in `net.Socket.prototype.connect` (fetch and
 * undici's Agent, Pool and Client, `http`, `https`, `http2.connect`, `tls.connect`, `net.connect`). The
 * routes the preload redirects (fetch, `http(s).request`) reach it already pointed at the target; a
 * socket still headed for a named host comes from a client that cannot be redirected (it holds its own
 * connection to that origin). It is refused loudly: the socket fails with an error naming the host, and
 * the same line goes to stderr, since a library may swallow the error. Never a silent pass-through.
 *
 * A client that goes through a proxy (undici's `ProxyAgent`, a hand-made tunnel) opens its socket to
 * the proxy, then asks it for the host: `CONNECT api.helloasso.com:443`, or an absolute-form
 * `GET http://api.helloasso.com/…`. Such a request line is refused the same way when it is written,
 * before a byte of it leaves, so no proxy is ever asked to open a tunnel to a named host.
 */

import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { type InterceptPlan, intercepts } from "./hosts.js";

const load = createRequire(import.meta.url);
const net = load("node:net") as typeof import("node:net");

type Connect = Socket["connect"];

/** The host and port a `connect(...)` call names: `(options)`, `(port, host?)`, `([options, cb])`. */
function destination(args: unknown[]): { host: string; port: unknown } | undefined {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === "object" && first !== null) {
    const options = first as { host?: unknown; port?: unknown; path?: unknown };
    if (options.path !== undefined) return undefined;
    return { host: String(options.host ?? "localhost"), port: options.port };
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return { host: typeof args[1] === "string" ? args[1] : "localhost", port: first };
  }
  return undefined;
}

/** A request line asking a proxy for a host: `CONNECT host:port HTTP/1.1`, or absolute-form `GET http://host/…`. */
const PROXY_REQUEST =
  /^(?:CONNECT (\[[^\]]*\]|[^\s:/]+):(\d+) |[A-Z]+ (https?):\/\/(\[[^\]]*\]|[^\s:/?#]+)(?::(\d+))?[\s/?#])/;

/** The host and port a chunk written to a socket asks a proxy for, if it begins with such a line. */
function proxied(chunk: unknown): { host: string; port: unknown } | undefined {
  const first = typeof chunk === "string" ? chunk.charCodeAt(0) : chunk instanceof Uint8Array ? chunk[0] : 0;
  if (first === undefined || first < 0x41 || first > 0x5a) return undefined; // not an upper-case method
  const bytes = chunk as Uint8Array;
  const head =
    typeof chunk === "string"
      ? chunk.slice(0, 512)
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1", 0, 512);
  const match = PROXY_REQUEST.exec(head);
  if (match === null) return undefined;
  if (match[1] !== undefined) return { host: match[1], port: match[2] };
  return { host: match[4] ?? "", port: match[5] ?? (match[3] === "https" ? 443 : 80) };
}

/** The refusal, as the application and its stderr see it. */
export function refusal(host: string, port: unknown): Error {
  const error = new Error(
    `assopay-contract/intercept: refused a connection to ${host}:${String(port)}, a host it intercepts, ` +
      "from a client it cannot redirect (an undici Pool, Client, Agent or ProxyAgent of its own, " +
      "http2.connect, tls.connect or net.connect); use fetch or http(s).request for this host, or point " +
      "the client at ASSOPAY_INTERCEPT_TARGET",
  );
  return Object.assign(error, { code: "ERR_ASSOPAY_INTERCEPT_REFUSED" });
}

/** The refusal of a connection to `host`, its line written to stderr too (a library may swallow the error). */
function refused(host: string, port: unknown): Error {
  const error = refusal(host, port);
  process.stderr.write(`${error.message}\n`);
  return error;
}

const named = (plan: InterceptPlan, host: string) => intercepts(plan, host.replace(/^\[|\]$/g, ""));

/**
 * Replaces `net.Socket.prototype.connect` and `write` with ones that refuse sockets to the named hosts
 * and request lines asking a proxy for them (see the module). Returns the function that puts the
 * originals back.
 */
export function guardSockets(plan: InterceptPlan): () => void {
  const { connect, write } = net.Socket.prototype;
  const guarded = function (this: Socket, ...args: unknown[]) {
    const to = destination(args);
    if (to === undefined || !named(plan, to.host))
      return (connect as (...a: unknown[]) => Socket).apply(this, args);
    const error = refused(to.host, to.port);
    process.nextTick(() => this.destroy(error));
    return this;
  } as Connect;
  const guardedWrite = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    const to = proxied(chunk);
    if (to === undefined || !named(plan, to.host))
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    this.destroy(refused(to.host, to.port));
    return false;
  } as Socket["write"];
  net.Socket.prototype.connect = guarded;
  net.Socket.prototype.write = guardedWrite;
  return () => {
    if (net.Socket.prototype.connect === guarded) net.Socket.prototype.connect = connect;
    if (net.Socket.prototype.write === guardedWrite) net.Socket.prototype.write = write;
  };
}
