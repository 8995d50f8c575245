import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One notification as it arrived: the raw bytes the signature covers, and the headers. */
export interface Delivery {
  /** Order of arrival, from 1. */
  n: number;
  receivedAt: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  /** The URL to register (a random path, so stray traffic is told apart). */
  url: string;
  deliveries(): readonly Delivery[];
  /** Resolves once `count` deliveries in all have arrived, or at the deadline. */
  waitFor(count: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_BODY = 1_048_576;

/** A webhook receiver on 127.0.0.1:0 that answers 200 to every POST and keeps what it got. */
export async function startReceiver(): Promise<Receiver> {
  const path = `/assopay-receiver/${randomBytes(8).toString("hex")}`;
  const received: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => {
      if (req.method === "POST" && (req.url ?? "").split("?")[0] === path) {
        received.push({
          n: received.length + 1,
          receivedAt: Date.now(),
          method: req.method,
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        for (const wake of waiters) wake();
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    deliveries: () => received,
    waitFor(count, timeoutMs, signal) {
      if (received.length >= count) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const finish = (ok: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          signal?.removeEventListener("abort", abort);
          resolve(ok);
        };
        const check = () => {
          if (received.length >= count) finish(true);
        };
        const abort = () => finish(false);
        const timer = setTimeout(() => finish(received.length >= count), timeoutMs);
        waiters.add(check);
        signal?.addEventListener("abort", abort, { once: true });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
