import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { problem, sendProblem } from "../../core/http/problem.js";
import { isOriginForm } from "./message.js";

function refusal(what: string, detail: string, status = 400) {
  return problem("not-a-reverse-proxy", status, `The ${what} is not an open proxy`, detail);
}

/**
 * Refuses a request whose target is not a path (`GET http://elsewhere/…`, `OPTIONS *`): the proxy only
 * ever talks to its one upstream. Returns true when it answered.
 */
export function refuseNonOriginForm(req: IncomingMessage, res: ServerResponse, what: string): boolean {
  if (isOriginForm(req.url)) return false;
  const detail = `request target "${req.url ?? ""}" refused: only paths (/v5/…) are accepted, never absolute URLs`;
  res.setHeader("connection", "close");
  sendProblem(res, refusal(what, detail));
  req.resume();
  return true;
}

function refuseSocket(socket: Duplex, status: string, detail: string, what: string): void {
  const body = JSON.stringify(refusal(what, detail, Number.parseInt(status, 10)));
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** CONNECT tunnels and protocol upgrades are refused with a problem and a closed connection. */
export function refuseConnect(server: Server, what: string): void {
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    refuseSocket(socket, "405 Method Not Allowed", `CONNECT ${req.url ?? ""} refused: no tunnels`, what);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex) => {
    refuseSocket(socket, "400 Bad Request", `upgrade to "${req.headers.upgrade ?? ""}" refused`, what);
  });
}
