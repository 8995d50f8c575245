import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { createExchange, type Exchange, sendErrors } from "./http.js";

/**
 * The HTTP server. Every request goes to `dispatch`; whatever it throws becomes a 500 in the service's
 * error shape, and a malformed request line gets a 400: nothing a client sends stops the server.
 */
export function createSandboxServer(dispatch: (ex: Exchange) => Promise<void>): Server {
  const server = createServer((req, res) => {
    const ex = createExchange(req, res);
    dispatch(ex).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendErrors(
        ex,
        500,
        "InternalError",
        `The sandbox failed on this request: ${(error as Error)?.message ?? String(error)}`,
      );
    });
  });
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  return server;
}
