import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { type RunningServer, startServer } from "../../../core/http/server.js";

/** A server on 127.0.0.1:0 whose every request goes to `handle`; a failure is a 500 naming it. */
export function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
  graceMs = 0,
): Promise<RunningServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  return startServer(server, { what: "test server", graceMs });
}

/** Writes `text` as is on a fresh connection and resolves to everything that came back before it closed. */
export function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

/** The status and body of a raw HTTP/1.1 response text. */
export function parseResponse(text: string): { status: number; head: string; body: string } {
  const end = text.indexOf("\r\n\r\n");
  const head = text.slice(0, end);
  return { status: Number(head.slice(9, 12)), head: head.toLowerCase(), body: text.slice(end + 4) };
}
