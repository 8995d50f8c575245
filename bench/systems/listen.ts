import type { Server } from "node:http";
import { startServer } from "../../core/http/server.js";

/** Listens on 127.0.0.1 at a free port and prints `READY <url>`, the line the bench waits for. */
export async function listenAndAnnounce(server: Server, port = 0): Promise<string> {
  const { url } = await startServer(server, { what: "bench system", port });
  process.stdout.write(`READY ${url}\n`);
  return url;
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
