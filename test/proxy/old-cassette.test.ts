import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { send } from "./support/http.js";

/**
 * A cassette recorded by the code before issue 28 (main at 57d4781, its own recorder against a local
 * upstream: a JSON page, pretty JSON, CSV, binary, gzip, a token answer, a text echoing secrets), with what
 * that code's replay served for each request (`.replayed.json`): the body scan and the big-body fast path
 * must not change how an existing cassette loads and replays.
 */
const FIXTURE = join(packageRoot(), "test/fixtures/cassettes/recorded-before-issue-28.yaml");

interface Served {
  status: number;
  contentType: string;
  contentEncoding: string | null;
  length: number;
  sha256: string;
}
const SERVED = JSON.parse(readFileSync(FIXTURE.replace(/\.yaml$/, ".replayed.json"), "utf8")) as Record<
  string,
  Served
>;

describe("a cassette recorded before the big-body fast path", () => {
  let replay: RunningReplay;

  beforeAll(async () => {
    replay = await startReplay({ cassettes: FIXTURE });
  });

  afterAll(async () => {
    await replay.close();
  });

  it("replays every answer byte for byte as the code that recorded it did", async () => {
    expect(Object.keys(SERVED)).toHaveLength(7);
    for (const [path, before] of Object.entries(SERVED)) {
      const reply = await send(`${replay.url}${path}`, { headers: { "accept-encoding": "gzip" } });
      expect(
        {
          status: reply.status,
          contentType: reply.headers["content-type"],
          contentEncoding: reply.headers["content-encoding"] ?? null,
          length: reply.body.length,
          sha256: createHash("sha256").update(reply.body).digest("hex"),
        },
        path,
      ).toEqual(before);
    }
  });

  it("serves the recorded bytes themselves where nothing was redacted, and no secret where it was", async () => {
    const file = await send(`${replay.url}/v5/file`);
    expect(file.body.equals(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(true);
    const csv = await send(`${replay.url}/v5/export.csv`);
    expect(csv.text).toBe("id;payer;amount\n101;Zoé Martin;45,99\n102;Léa Durand;12,00\n");
    const token = await send(`${replay.url}/v5/token`);
    expect(token.text).not.toContain("at-0123456789abcdef");
    expect(token.json()).toMatchObject({ token_type: "bearer", expires_in: 1799 });
  });
});
