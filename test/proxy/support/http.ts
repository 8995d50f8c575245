import { mkdtemp, rm } from "node:fs/promises";
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came over the wire (never decompressed). */
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Send {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  agent?: Agent | false;
}

/** A plain http.request client (no fetch, no decompression). */
export function send(url: string, options: Send = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString("utf8"),
            json: <T>() => JSON.parse(body.toString("utf8")) as T,
          });
        });
        res.on("error", reject);
      },
    );
    call.on("error", reject);
    call.end(options.body);
  });
}

/** A fresh temporary folder, removed by the returned function. */
export async function tempDir(): Promise<{
  dir: string;
  file(name: string): string;
  remove(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "assopay-proxy-"));
  return { dir, file: (name) => join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}
