import type { Server } from "node:http";
import { startServer } from "../../core/http/server.js";

/** The value of a command-line flag (`--name value`), if given. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/**
 * Listens on 127.0.0.1 at a free port, keeping idle connections 60 s, prints `READY <url>` (the line the
 * bench waits for), and on SIGTERM/SIGINT closes the server and then runs `close`.
 */
export async function serve(server: Server, close?: () => unknown): Promise<void> {
  server.keepAliveTimeout = 60_000;
  const { url } = await startServer(server, { what: "bench system" });
  process.stdout.write(`READY ${url}\n`);
  closeOnSignal(() => {
    server.close();
    return close?.();
  });
}

/** Closes on SIGTERM/SIGINT. */
export function closeOnSignal(close: () => unknown): void {
  const stop = () => {
    Promise.resolve(close()).finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** A port for a peer that cannot be given port 0 and say which it got. */
export const randomPort = () => 20_000 + Math.floor(Math.random() * 20_000);
