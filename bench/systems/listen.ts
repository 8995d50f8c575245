import type { Server } from "node:http";

/** Listens on 127.0.0.1 at a free port and prints `READY <url>`, the line the bench waits for. */
export function listenAndAnnounce(server: Server, port = 0): Promise<string> {
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
      process.stdout.write(`READY ${url}\n`);
      resolve(url);
    });
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
