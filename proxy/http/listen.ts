import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AssopayError } from "../../core/errors.js";

/** Starts listening; resolves to the base URL (`http://127.0.0.1:PORT`). A busy port is an AssopayError. */
export function listen(server: Server, host: string, port: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new AssopayError("usage", `the ${what} cannot listen on ${host}:${port}: ${error.message}`, {
          hint:
            error.code === "EADDRINUSE" ? "choose another --port, or --port 0 for any free port" : undefined,
          cause: error,
        }),
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}

/**
 * Stops accepting connections, lets requests in progress finish for up to `graceMs`, then cuts what is
 * left. Resolves once the server is closed.
 */
export async function closeServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}
