import { writeFile } from "node:fs/promises";
import { emitDocument } from "../../../proxy/cassette/emit.js";
import { CASSETTE_FORMAT, type Interaction, type StoredBody } from "../../../proxy/cassette/format.js";

export const HEADER = {
  format: CASSETTE_FORMAT,
  upstream: "https://api.helloasso-sandbox.com/",
  recordedAt: "2025-05-01T10:00:00.000Z",
  tool: "assopay-contract@0.1.0",
  redaction: { secrets: "hmac-sha256", salted: false, pii: false },
} as const;

export interface Exchange {
  method?: string;
  path: string;
  query?: Record<string, string | string[]>;
  requestHeaders?: Record<string, string>;
  requestBody?: StoredBody;
  status?: number;
  body?: StoredBody;
  headers?: Record<string, string>;
}

/** Interactions from short descriptions, ids from 1. */
export function interactions(exchanges: readonly Exchange[]): Interaction[] {
  return exchanges.map((x, i) => ({
    id: i + 1,
    recordedAt: "2025-05-01T10:00:01.000Z",
    request: {
      method: x.method ?? "GET",
      path: x.path,
      ...(x.query ? { query: x.query } : {}),
      headers: x.requestHeaders ?? {},
      ...(x.requestBody ? { body: x.requestBody } : {}),
    },
    response: {
      status: x.status ?? 200,
      headers: x.headers ?? { "content-type": "application/json; charset=utf-8" },
      ...(x.body ? { body: x.body } : {}),
    },
  }));
}

/** Writes a cassette file made of these exchanges. */
export async function writeCassette(
  file: string,
  exchanges: readonly Exchange[],
  header: object = HEADER,
): Promise<void> {
  const docs = [emitDocument({ ...header }), ...interactions(exchanges).map((i) => emitDocument({ ...i }))];
  await writeFile(file, docs.join(""));
}
