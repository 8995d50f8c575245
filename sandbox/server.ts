import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import type { LocalGuard } from "../core/http/local-guard.js";
import { createExchange, type Exchange, sendErrors } from "./http.js";

/** A request the sandbox answered: its method, raw path (no query) and status. */
export interface SandboxAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/**
 * The HTTP server. Every request passes `guard` first (its own Host names; control requests from
 * programs only); then it goes to `dispatch`, and whatever that throws becomes a 500 in the service's
 * error shape, and a malformed request line gets a 400: nothing a client sends stops the server.
 */
export function createSandboxServer(
  dispatch: (ex: Exchange) => Promise<void>,
  guard: LocalGuard,
  isControl: (req: IncomingMessage) => boolean,
  onAnswer?: (answer: SandboxAnswer) => void,
): Server {
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, isControl(req) ? "control" : "host")) return;
    const ex = createExchange(req, res);
    if (onAnswer) {
      const { method, pathname: path } = ex;
      res.once("finish", () => onAnswer({ method, path, status: res.statusCode }));
    }
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
