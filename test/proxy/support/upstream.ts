import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { gzipSync } from "node:zlib";

/** Secrets the test upstream hands out and expects; the secrets audit greps the disk for each. */
export const SECRETS = {
  clientSecret: "cs_live_9f8e7d6c5b4a3f2e1d0c",
  accessToken: "at_5JkQ8vN2pL7xR4mW9bT3yH6gF1dS0aZc",
  refreshToken: "rt_Zx8Cv7Bn6Mm5Ll4Kk3Jj2Hh1Gg0Ff9Ee",
  signatureKey: "sk_wh_4c1a9e3b7d2f8a6c5e0b",
  sessionCookie: "sess_77aa88bb99cc00dd11ee",
  queryToken: "qt_3e4r5t6y7u8i9o0p1a2s",
  basicPassword: "bp_Secr3tPassw0rdValue!",
  /** Only ever in a pretty-printed JSON body (stored as text). */
  prettyOnly: "it_PrettyPrinted0nlyIdToken",
  /** Only ever in a JSON body too large to store as a map. */
  bigOnly: "cs_OnlyInTheBigJsonBody9",
} as const;

/** A binary body that is not valid UTF-8 (an "attached file"). */
export const BINARY = Buffer.concat([
  Buffer.from("%PDF-1.7\n"),
  randomBytes(4096),
  Buffer.from([0xff, 0xfe, 0x00, 0x80]),
]);

export const PAGE_TOKENS = ["page2+/=tok", "page3%&tok", "end-token"] as const;

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | string[]> = {},
) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

function page(token: string | null) {
  const index = token === null ? 0 : PAGE_TOKENS.indexOf(token as (typeof PAGE_TOKENS)[number]) + 1;
  const empty = index >= PAGE_TOKENS.length;
  const data = empty
    ? []
    : [0, 1].map((i) => ({
        id: index * 10 + i,
        date: "2025-02-12T15:57:54.0125398+01:00",
        payer: { email: `jean.dupont${index}${i}@gmail.com`, firstName: "Jean-Marie", lastName: "Dupont" },
        amount: { total: 1200, vat: 0 },
        items: [{ id: 100 + i, amount: 1200, type: "Registration", state: "Processed" }],
      }));
  return {
    data,
    pagination: {
      pageSize: 20,
      pageIndex: 1,
      totalCount: 6,
      totalPages: 3,
      continuationToken: PAGE_TOKENS[Math.min(index, PAGE_TOKENS.length - 1)],
    },
  };
}

/**
 * A small upstream for the proxy tests: pagination, a token endpoint full of secrets, gzip, chunked and
 * binary bodies, and every way an upstream can fail.
 */
export async function startUpstream(): Promise<{
  url: string;
  server: Server;
  hits: Map<string, number>;
  close(): Promise<void>;
}> {
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    const key = `${req.method} ${url.pathname}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const body = await readAll(req);
    const p = url.pathname;
    if (p === "/oauth2/token") {
      json(
        res,
        200,
        {
          access_token: SECRETS.accessToken,
          refresh_token: SECRETS.refreshToken,
          token_type: "bearer",
          expires_in: 1800,
        },
        {
          "set-cookie": [`session=${SECRETS.sessionCookie}; Path=/; HttpOnly`],
        },
      );
    } else if (p.endsWith("/items") && p.startsWith("/v5/")) {
      const token = url.searchParams.get("continuationToken") ?? url.searchParams.get("continuationtoken");
      json(res, 200, page(token));
    } else if (p.endsWith("/items") && p.startsWith("/v3/")) {
      json(res, 200, {
        items: [{ id: 1 }],
        pagination: { pageSize: 20, pageIndex: 1, totalCount: 1, totalPages: 1 },
      });
    } else if (p === "/v5/partners/me") {
      json(res, 200, {
        name: "partner",
        urlNotificationList: [
          { url: "http://proxy/__assopay/notifications", signatureKey: SECRETS.signatureKey },
        ],
      });
    } else if (p === "/gzip" || p === "/gzip-secret") {
      const secret = p === "/gzip-secret" ? { refresh_token: SECRETS.refreshToken } : {};
      const zipped = gzipSync(Buffer.from(JSON.stringify({ zipped: true, ...secret, list: [1, 2, 3] })));
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": zipped.length,
      });
      res.end(zipped);
    } else if (p === "/pretty-token") {
      const text = JSON.stringify(
        { access_token: SECRETS.accessToken, id_token: SECRETS.prettyOnly },
        null,
        2,
      );
      res.writeHead(200, { "content-type": "application/json" }).end(text);
    } else if (p === "/big-json") {
      const rows = Array.from({ length: 6000 }, (_, i) => ({ id: i, note: "x".repeat(80) }));
      const text = JSON.stringify({
        rows,
        partner: { clientSecret: SECRETS.bigOnly, accessToken: SECRETS.accessToken },
      });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(text);
    } else if (p === "/big-page") {
      const data = Array.from({ length: 7000 }, (_, i) => ({
        id: i,
        payer: { firstName: "Zoé", email: `p${i}@example.org` },
        note: 'é"\\/',
      }));
      const text = JSON.stringify({ data, pagination: { pageSize: 5000, continuationToken: "tok+/=" } });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(text);
    } else if (p === "/chunked") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      for (let i = 0; i < 5; i++) {
        res.write(`chunk ${i} é\r\n`);
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end("last line without newline");
    } else if (p === "/binary") {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": BINARY.length });
      res.end(BINARY);
    } else if (p === "/echo" || p.startsWith("/echo/")) {
      json(res, 201, {
        method: req.method,
        query: url.search,
        received: body.toString("utf8"),
        contentType: req.headers["content-type"] ?? null,
      });
    } else if (p === "/counter") {
      json(res, 200, { hit: hits.get(key) });
    } else if (p === "/slow") {
      // never answers
    } else if (p === "/slow-body") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("started…");
    } else if (p === "/reset") {
      res.writeHead(200, { "content-type": "text/plain", "content-length": 1000 });
      res.write("partial body");
      setTimeout(() => req.socket.destroy(), 20);
    } else if (p === "/reset-early") {
      req.socket.destroy();
    } else if (p === "/big") {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": 10_000 });
      res.end(Buffer.alloc(10_000, 1));
    } else if (p === "/big-chunked") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, 2));
      res.end();
    } else if (p === "/error-text") {
      res.writeHead(401, { "content-type": "text/plain" });
      res.end(`invalid token ${SECRETS.accessToken}`);
    } else if (p === "/head") {
      res.writeHead(200, { "content-type": "text/plain", "x-custom": "kept" });
      res.end(req.method === "HEAD" ? undefined : "head body");
    } else {
      json(res, 404, { errors: [{ code: "NotFound", message: `no ${p}` }] });
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    hits,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP server that answers every connection with bytes that are not HTTP. */
export async function startGarbageUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createNetServer((socket) => {
    socket.on("data", () => socket.end("THIS IS NOT HTTP AT ALL\r\n\r\n"));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The service's notification signature. */
export function sign(key: string, body: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}
