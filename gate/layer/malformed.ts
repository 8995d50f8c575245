import type { Socket } from "node:net";
import type { Contract } from "../../contracts/index.js";
import { requestFacts } from "./request-facts.js";
import type { TrafficLog } from "./traffic-log.js";

/**
 * A request the HTTP parser refused (a raw space in the target …) is still the client's request: it
 * is recorded from the raw bytes of its request line, then answered 400, as the service would.
 */
export function recordMalformed(
  contract: Contract,
  traffic: TrafficLog,
  error: Error & { rawPacket?: Buffer },
  socket: Socket,
): void {
  const line = error.rawPacket?.toString("latin1").split("\r\n")[0] ?? "";
  const parts = line.split(" ");
  if (parts.length >= 3) {
    const method = parts[0]?.toUpperCase() ?? "GET";
    const rawUrl = parts.slice(1, -1).join(" ");
    const facts = requestFacts(contract, method, rawUrl);
    const seq = traffic.begin({
      method,
      rawUrl,
      headers: {},
      route: facts.route,
      listingKey: facts.listingKey,
      token: facts.token,
      authorization: "",
    });
    if (seq !== undefined)
      traffic.finish(seq, {
        status: 400,
        madeBy: "gate",
        reason: "malformed-request",
        page: undefined,
        at: Date.now(),
        retryAfter: undefined,
      });
  }
  if (socket.writable)
    socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  else socket.destroy();
}
