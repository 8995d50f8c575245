import { createServer, type IncomingMessage } from "node:http";
import { startServer } from "../../../core/http/server.js";

/** What a counting upstream saw: every request, with its headers and body as text. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/**
 * An upstream on 127.0.0.1 that answers every request with `{ n, method, url }` (n counts from 1) and
 * keeps what it saw, so a test can prove what reached it and what did not.
 */
export async function startCountingUpstream(): Promise<{
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const body = JSON.stringify({ n: seen.length, method: req.method, url: req.url });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  const running = await startServer(server, {
    what: "counting upstream",
    host: "127.0.0.1",
    port: 0,
    graceMs: 0,
  });
  return { url: running.url, seen, close: running.close };
}
