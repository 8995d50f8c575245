import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AssopayError } from "../errors.js";

/** Where and how to run a server. */
export interface ServeOptions {
  /** Who is listening, for error messages: `"sandbox"`, `"replay server"`. */
  readonly what: string;
  /** Address to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Port to bind; 0 (the default) takes any free port. */
  readonly port?: number;
  /**
   * How long `close()` lets requests in progress finish before it cuts their connections (default 0:
   * cut at once). Idle keep-alive connections are closed at once either way.
   */
  readonly graceMs?: number;
}

/** A server that listens. */
export interface RunningServer {
  /** Its base URL, `http://127.0.0.1:PORT` (a wildcard address is reached through 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets requests in progress finish for up to `graceMs`, then cuts the rest. Idempotent. */
  close(): Promise<void>;
}

function hintFor(code: string | undefined): string | undefined {
  switch (code) {
    case "EADDRINUSE":
    case "EACCES":
      return "choose another --port, or --port 0 for any free port";
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "choose another --host: an address of this machine, such as 127.0.0.1";
    default:
      return undefined;
  }
}

function urlOf(address: AddressInfo): string {
  if (address.address === "0.0.0.0" || address.address === "::") return `http://127.0.0.1:${address.port}`;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Stops accepting connections, closes idle ones, lets requests in progress finish for up to `graceMs`,
 * then cuts what is left. Resolves once the server is closed.
 */
async function stop(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (graceMs <= 0) {
    server.closeAllConnections();
    await closed;
    return;
  }
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

/**
 * Starts `server` listening and resolves once it does. A port or address that cannot be bound is an
 * `AssopayError` (usage) naming `what`, the address and what to do.
 *
 * @example
 * const running = await startServer(createServer(handler), { what: "receiver", port: 0, graceMs: 5000 });
 * await fetch(`${running.url}/hook`, { method: "POST", body: "{}" });
 * await running.close();
 */
export function startServer(server: Server, options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  const graceMs = options.graceMs ?? 0;
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new AssopayError("usage", `the ${options.what} cannot listen on ${host}:${port}: ${error.message}`, {
          hint: hintFor(error.code),
          cause: error,
        }),
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address() as AddressInfo;
      let closing: Promise<void> | undefined;
      resolve({
        url: urlOf(address),
        port: address.port,
        close: () => {
          closing ??= stop(server, graceMs);
          return closing;
        },
      });
    });
  });
}
