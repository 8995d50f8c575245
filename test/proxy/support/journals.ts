/**
 * Journals and cassettes made by hand for the recovery tests: a cassette holding only its header, and a
 * journal of `GET /item?n=N` exchanges written by the recorder's own `Journal`, with each frame's offset.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emitDocument } from "../../../proxy/cassette/emit.js";
import { CASSETTE_FORMAT } from "../../../proxy/cassette/format.js";
import type { FrameMeta } from "../../../proxy/record/journal.js";
import { Journal } from "../../../proxy/record/journal.js";

/** Writes a cassette with no interaction yet (what `record` writes at its start). */
export async function emptyCassette(file: string, salted = false): Promise<void> {
  await writeFile(
    file,
    emitDocument({
      format: CASSETTE_FORMAT,
      upstream: "http://127.0.0.1:9",
      recordedAt: "2026-11-23T12:00:00.000Z",
      tool: "assopay-contract@test",
      redaction: { secrets: "hmac-sha256", salted, pii: false },
    }),
  );
}

/** The metadata of exchange `id`: `GET /item?n=ID` with a bearer token that must never reach a cassette. */
export function itemMeta(id: number): FrameMeta {
  return {
    id,
    startedAt: Date.parse("2026-11-23T12:00:00Z"),
    method: "GET",
    url: `/item?n=${id}`,
    requestHeaders: { host: "x", authorization: "Bearer journal-secret-token" },
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    notification: false,
  };
}

/** The response body of exchange `id`. */
export const itemBody = (id: number, pad = 0) => `{"item":${id},"pad":"${"p".repeat(pad)}"}`;

/**
 * Appends exchanges `ids` to the journal of `cassette` (each response body followed by `tail`, as
 * latin1 bytes); returns where each frame starts.
 */
export function journalItems(cassette: string, ids: readonly number[], pad = 0, tail = ""): number[] {
  const journal = Journal.open(cassette);
  const offsets: number[] = [];
  for (const id of ids) {
    offsets.push(journal.size);
    const body = Buffer.concat([Buffer.from(itemBody(id, pad)), Buffer.from(tail, "latin1")]);
    journal.append(JSON.stringify(itemMeta(id)), Buffer.alloc(0), [body]);
  }
  journal.close(false);
  return offsets;
}

/** The bytes of a whole, sound journal frame of exchange `id`, as the recorder writes it. */
export async function journalFrameBytes(id: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "assopay-frame-"));
  try {
    journalItems(join(dir, "c.yaml"), [id]);
    return await readFile(join(dir, "c.yaml.journal"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A frame in the previous format (`AJ01`: magic and three lengths, no checksum). */
export function legacyFrame(id: number): Buffer {
  const meta = Buffer.from(JSON.stringify(itemMeta(id)));
  const body = Buffer.from(itemBody(id));
  const head = Buffer.alloc(16);
  head.write("AJ01", 0, "latin1");
  head.writeUInt32LE(meta.length, 4);
  head.writeUInt32LE(0, 8);
  head.writeUInt32LE(body.length, 12);
  return Buffer.concat([head, meta, body]);
}
