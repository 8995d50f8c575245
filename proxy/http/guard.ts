import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { guardSocket } from "../../core/http/local-guard.js";
import { problem, sendProblem } from "../../core/http/problem.js";
import { acceptAbsoluteForm, acceptTunnel, type Interception } from "../forward/interception.js";
import { INTERCEPTED_HEADER } from "../intercept/hosts.js";
import { isOriginForm } from "./message.js";

function refusal(what: string, detail: string, status = 400) {
  return problem("not-a-reverse-proxy", status, `The ${what} is not an open proxy`, detail);
}

function namedHosts(interception: Interception): string {
  return [...interception.hosts].join(", ");
}

/**
 * Refuses a request whose target is not a path (`GET http://elsewhere/…`, `OPTIONS *`): the proxy only
 * ever talks to its one upstream. With an interception, absolute-form targets on its named hosts are
 * taken (and every other one refused with 403). The intercept preload's header is dropped here, so it
 * reaches neither the upstream nor the cassette. Returns true when it answered.
 */
export function refuseNonOriginForm(
  req: IncomingMessage,
  res: ServerResponse,
  what: string,
  interception?: Interception,
): boolean {
  delete req.headers[INTERCEPTED_HEADER];
  if (isOriginForm(req.url)) return false;
  if (interception && acceptAbsoluteForm(interception, req)) return false;
  const detail = interception
    ? `request target "${req.url ?? ""}" refused: only ${namedHosts(interception)} are intercepted`
    : `request target "${req.url ?? ""}" refused: only paths (/v5/…) are accepted, never absolute URLs`;
  sendProblem(res, refusal(what, detail, interception ? 403 : 400), { connection: "close" });
  req.resume();
  return true;
}

function refuseSocket(socket: Duplex, status: string, detail: string, what: string): void {
  const body = JSON.stringify(refusal(what, detail, Number.parseInt(status, 10)));
  // A peer may reset the connection while the refusal is written: that costs this socket only.
  guardSocket(socket);
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * CONNECT tunnels and protocol upgrades are refused with a problem and a closed connection; with an
 * interception, `CONNECT host:443` to a named host is taken, any other refused with 403.
 */
export function refuseConnect(server: Server, what: string, interception?: Interception): void {
  server.on("connect", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!interception) {
      refuseSocket(socket, "405 Method Not Allowed", `CONNECT ${req.url ?? ""} refused: no tunnels`, what);
    } else if (!acceptTunnel(interception, server, req, socket, head)) {
      const detail = `CONNECT ${req.url ?? ""} refused: only ${namedHosts(interception)} on port 443 are intercepted`;
      refuseSocket(socket, "403 Forbidden", detail, what);
    }
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex) => {
    refuseSocket(socket, "400 Bad Request", `upgrade to "${req.headers.upgrade ?? ""}" refused`, what);
  });
}
