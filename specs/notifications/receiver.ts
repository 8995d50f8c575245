import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { AssopayError, isAssopayError } from "../../core/errors.js";
import { readBodyOrRefuse } from "../../core/http/body.js";
import { createLocalGuard } from "../../core/http/local-guard.js";
import { startServer } from "../../core/http/server.js";

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
  /** The base URL to register (a random path, so stray traffic is told apart). */
  url: string;
  /** The URL to register for one registration: the base URL and `/name`. */
  urlFor(name: string): string;
  /** The registration name a delivery came for (`urlFor`'s name), or `""` for the base URL. */
  nameOf(delivery: Delivery): string;
  deliveries(): readonly Delivery[];
  /** Resolves once `count` deliveries in all have arrived, or at the deadline. */
  waitFor(count: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

/** The largest notification body the receiver keeps; a larger one gets 413 and is not kept. */
export const RECEIVER_MAX_BODY_BYTES = 1_048_576;

/** Where the receiver listens, and the address a remote provider reaches it at. */
export interface ReceiverOptions {
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number | undefined;
  /** Public address forwarding to that port (a tunnel); the receiver's paths are appended to it. */
  publicUrl?: string | undefined;
}

/**
 * A webhook receiver on 127.0.0.1 that answers 200 to every POST under its random path and keeps what
 * it got. Behind a tunnel (`publicUrl`), whatever path prefix the tunnel adds is accepted.
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const path = `/assopay-receiver/${randomBytes(8).toString("hex")}`;
  const ours = (url: string) => url.split("?")[0]?.includes(path) === true;
  const received: Delivery[] = [];
  const waiters = new Set<() => void>();
  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBodyOrRefuse(req, res, {
      bytes: RECEIVER_MAX_BODY_BYTES,
      title: "Notification body too large",
    });
    if (!body.ok) return;
    if (req.method === "POST" && ours(req.url ?? "")) {
      received.push({
        n: received.length + 1,
        receivedAt: Date.now(),
        method: req.method,
        path: req.url ?? "",
        headers: req.headers,
        body: body.bytes,
      });
      for (const wake of waiters) wake();
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    } else {
      res.writeHead(404).end();
    }
  };
  // Only its own names (and the tunnel's, which forwards with its own Host), and no web page.
  const guard = createLocalGuard({
    what: "notification receiver",
    servedHosts: options.publicUrl ? [new URL(options.publicUrl).hostname] : [],
  });
  const server = createServer((req, res) => {
    if (!guard.admit(req, res, "cross-site")) return;
    receive(req, res).catch(() => res.destroy());
  });
  const running = await startServer(server, { what: "notification receiver", port: options.port ?? 0 }).catch(
    (error: unknown) => {
      if (!isAssopayError(error)) throw error;
      throw new AssopayError("usage", error.message, {
        hint: "choose another --receiver-port, or leave it out to take any free port",
        cause: error,
      });
    },
  );
  const base = `${options.publicUrl ?? running.url}${path}`;
  return {
    url: base,
    urlFor: (name) => `${base}/${name}`,
    nameOf: (delivery) => {
      const rest = (delivery.path.split("?")[0] ?? "").split(path)[1] ?? "";
      return rest.replace(/^\//, "");
    },
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
    close: running.close,
  };
}
