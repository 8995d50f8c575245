import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An upstream on 127.0.0.1 that answers `/blob?id=X&size=N` with N bytes of JSON naming X, and keeps
 * the target of every request it was asked (to show which ones reached it).
 */
export async function blobUpstream(): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const head = JSON.stringify({ id: query.get("id") ?? "", pad: "" });
    const size = Number(query.get("size") ?? 100);
    const body = Buffer.from(`${head.slice(0, -2)}${"x".repeat(Math.max(0, size - head.length))}"}`);
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
