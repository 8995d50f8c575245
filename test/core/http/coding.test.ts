import { request } from "node:http";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentCoding, decodedBytes, decompress, isOversized } from "../../../core/http/coding.js";
import type { RunningServer } from "../../../core/http/server.js";
import { serve } from "./support.js";

const TEXT = Buffer.from(JSON.stringify({ data: [{ id: 1, name: "Gala 2025 — entrée" }] }), "utf8");

/** How the test server encodes its one body, by path. */
const ENCODED: Record<string, { header: string | undefined; bytes: Buffer }> = {
  "/gzip": { header: "gzip", bytes: gzipSync(TEXT) },
  "/x-gzip": { header: "x-gzip", bytes: gzipSync(TEXT) },
  "/deflate": { header: "deflate", bytes: deflateSync(TEXT) },
  "/raw-deflate": { header: "deflate", bytes: deflateRawSync(TEXT) },
  "/br": { header: "br", bytes: brotliCompressSync(TEXT) },
  "/identity": { header: "identity", bytes: TEXT },
  "/none": { header: undefined, bytes: TEXT },
  "/zstd": { header: "zstd", bytes: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]) },
  "/stacked": { header: "gzip, br", bytes: brotliCompressSync(gzipSync(TEXT)) },
  "/broken-gzip": { header: "gzip", bytes: Buffer.from("not gzip at all") },
};

/** The answer's header and body exactly as they came over the wire. */
function fetchRaw(url: string): Promise<{ header: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ header: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("decompression", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve((req, res) => {
      const answer = ENCODED[req.url ?? ""];
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (answer.header) headers["content-encoding"] = answer.header;
      res.writeHead(200, headers).end(answer.bytes);
    });
  });
  afterAll(() => server.close());

  it.each(["/gzip", "/x-gzip", "/deflate", "/raw-deflate", "/br"])("undoes %s", async (path) => {
    const { header, body } = await fetchRaw(`${server.url}${path}`);
    expect(body.equals(TEXT)).toBe(false);
    expect(await decodedBytes(body, header)).toEqual(TEXT);
    const coding = contentCoding(header);
    expect(coding).toBeDefined();
    if (coding) expect(await decompress(body, coding)).toEqual(TEXT);
  });

  it("passes a body without coding, or identity, through untouched", async () => {
    for (const path of ["/identity", "/none"]) {
      const { header, body } = await fetchRaw(`${server.url}${path}`);
      expect(contentCoding(header)).toBeUndefined();
      expect(await decodedBytes(body, header)).toBe(body);
    }
  });

  it("refuses a coding it does not know, stacked codings, and bytes that do not decode", async () => {
    for (const path of ["/zstd", "/stacked", "/broken-gzip"]) {
      const { header, body } = await fetchRaw(`${server.url}${path}`);
      expect(await decodedBytes(body, header)).toBeUndefined();
    }
    expect(contentCoding("zstd")).toBeUndefined();
    expect(contentCoding("gzip, br")).toBeUndefined();
    await expect(decompress(Buffer.from("not gzip at all"), "gzip")).rejects.toThrow();
  });

  it("reads the header's name in any case, around spaces", () => {
    expect(contentCoding(" GZip ")).toBe("gzip");
    expect(contentCoding("BR")).toBe("br");
    expect(contentCoding("Deflate")).toBe("deflate");
  });

  it.each(["gzip", "deflate", "br"] as const)(
    "stops decoding %s past the bound, an error told apart from damage",
    async (coding) => {
      const zeros = Buffer.alloc(64 * 1024);
      const packed = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[coding](zeros);
      const error = await decompress(packed, coding, 1024).catch((e: unknown) => e);
      expect(isOversized(error)).toBe(true);
      expect(await decompress(packed, coding, zeros.length)).toEqual(zeros);
      expect(
        isOversized(await decompress(Buffer.from("not compressed"), coding).catch((e: unknown) => e)),
      ).toBe(false);
    },
  );
});
