/**
 * The last line of the preload: every Node client ends in `net.Socket.prototype.connect` (fetch and
 * undici's Agent, Pool and Client, `http`, `https`, `http2.connect`, `tls.connect`, `net.connect`). The
 * routes the preload redirects (fetch, `http(s).request`) reach it already pointed at the target; a
 * socket still headed for a named host comes from a client that cannot be redirected (it holds its own
 * connection to that origin). It is refused loudly: the socket fails with an error naming the host, and
 * the same line goes to stderr, since a library may swallow the error. Never a silent pass-through.
 */

import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { type InterceptPlan, intercepts } from "./rewrite.js";

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

/** The refusal, as the application and its stderr see it. */
export function refusal(host: string, port: unknown): Error {
  const error = new Error(
    `assopay-contract/intercept: refused a connection to ${host}:${String(port)}, a host it intercepts, ` +
      "from a client it cannot redirect (an undici Pool, Client or Agent of its own, http2.connect, " +
      "tls.connect or net.connect); use fetch or http(s).request for this host, or point the client " +
      "at ASSOPAY_INTERCEPT_TARGET",
  );
  return Object.assign(error, { code: "ERR_ASSOPAY_INTERCEPT_REFUSED" });
}

/**
 * Replaces `net.Socket.prototype.connect` with one that refuses sockets to the named hosts (see the
 * module). Returns the function that puts the original back.
 */
export function guardSockets(plan: InterceptPlan): () => void {
  const original = net.Socket.prototype.connect;
  const guarded = function (this: Socket, ...args: unknown[]) {
    const to = destination(args);
    if (to === undefined || !intercepts(plan, to.host.replace(/^\[|\]$/g, ""))) {
      return (original as (...a: unknown[]) => Socket).apply(this, args);
    }
    const error = refusal(to.host, to.port);
    process.stderr.write(`${error.message}\n`);
    process.nextTick(() => this.destroy(error));
    return this;
  } as Connect;
  net.Socket.prototype.connect = guarded;
  return () => {
    if (net.Socket.prototype.connect === guarded) net.Socket.prototype.connect = original;
  };
}
