import { existsSync } from "node:fs";
import { readdir, symlink } from "node:fs/promises";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { AssopayError } from "../../core/errors.js";
import { loadCassette as readCassetteFile } from "../../proxy/cassette/reader.js";
import { startRecorder } from "../../proxy/index.js";
import { blobUpstream } from "./support/blob-upstream.js";
import { upstreamAndTemp } from "./support/lifecycle.js";
import { spawnServer } from "./support/recorder-process.js";

interface Got {
  status: number | undefined;
  /** Whether every byte the response declared arrived. */
  whole: boolean;
  text: string;
}

function get(url: string): Promise<Got> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status: number | undefined;
    let declared = Number.NaN;
    const done = () => {
      const body = Buffer.concat(chunks);
      resolve({ status, whole: body.length === declared, text: body.toString("utf8") });
    };
    request(url, { agent: false }, (res) => {
      status = res.statusCode;
      declared = Number(res.headers["content-length"]);
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    })
      .on("error", done)
      .end();
  });
}

const SMALL = 2048;
const BIG = 1024 * 1024;

describe("the journal is the recorder's only queue", () => {
  const files = upstreamAndTemp(blobUpstream);

  const start = (name: string, fileSizeLimitKb?: number) =>
    spawnServer(
      ["record", "--upstream", files.upstream.url, "--cassette", files.temp.file(name), "--port", "0"],
      undefined,
      fileSizeLimitKb,
    );
  const ids = async (name: string) =>
    (await readCassetteFile(files.temp.file(name))).interactions.map((i) => i.request.query?.id);

  it("a journal that cannot be written stops recording: no client gets a response the journal lacks, nothing more forwarded, exit 2 with the error and its hint", async () => {
    // Writes past 256 KB fail (EFBIG), as on a full disk: the 1 MB exchange cannot be journaled.
    const recorder = await start("full.yaml", 256);
    const first = await get(`${recorder.url}/blob?id=first&size=${SMALL}`);
    expect(first).toMatchObject({ status: 200, whole: true });

    const big = await get(`${recorder.url}/blob?id=big&size=${BIG}`);
    expect(big.whole).toBe(false);

    // Nothing more is forwarded: the recorder is closing (connection refused), or still answers 503.
    const after = await get(`${recorder.url}/blob?id=after&size=${SMALL}`);
    if (after.status !== undefined) {
      expect(after.status).toBe(503);
      expect(JSON.parse(after.text)).toMatchObject({
        type: "urn:assopay:problem:recording-stopped",
        detail: expect.stringContaining("cannot write the journal"),
        hint: expect.stringContaining("free space on that disk"),
      });
    }

    // The recorder stops by itself, and says why with a hint.
    expect(await recorder.exited).toBe(2);
    const output = recorder.output();
    expect(output).toMatch(
      /error\[bad-input\]: cannot write the journal .*full\.yaml\.journal \(EFBIG\): recording stopped/,
    );
    expect(output).toMatch(/hint: the journal sits beside the cassette: free space on that disk/);
    expect(output).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(await ids("full.yaml")).toEqual(["first"]);
  });

  it.skipIf(!existsSync("/dev/full"))(
    "a full disk (the journal on /dev/full), through the library: the client is cut off, `stopped` resolves with the error, later requests get 503 and reach no upstream",
    async () => {
      const cassette = files.temp.file("disk-full.yaml");
      await symlink("/dev/full", `${cassette}.journal`);
      const events: string[] = [];
      const recorder = await startRecorder({
        upstream: files.upstream.url,
        cassette,
        onEvent: (event) => events.push(`${event.kind}: ${event.message}`),
      });
      try {
        const cut = await get(`${recorder.url}/blob?id=cut&size=${SMALL}`);
        expect(cut.whole).toBe(false);
        const stopped = await recorder.stopped;
        expect(stopped).toBeInstanceOf(AssopayError);
        expect(stopped).toMatchObject({ code: "bad-input", hint: expect.stringContaining("free space") });
        expect(stopped.message).toContain("(ENOSPC): recording stopped");
        expect(events).toContain(`write-error: error[bad-input]: ${stopped.message}\nhint: ${stopped.hint}`);

        const asked = files.upstream.asked.length;
        const refused = await get(`${recorder.url}/blob?id=refused&size=${SMALL}`);
        expect(refused.status).toBe(503);
        expect(JSON.parse(refused.text)).toMatchObject({
          type: "urn:assopay:problem:recording-stopped",
          detail: stopped.message,
        });
        expect(files.upstream.asked.length).toBe(asked);
      } finally {
        await recorder.close();
      }
    },
  );

  it("with room to write, the same requests are all answered whole and recorded, and a clean stop leaves no journal", async () => {
    const recorder = await start("room.yaml");
    const answers = [
      await get(`${recorder.url}/blob?id=first&size=${SMALL}`),
      await get(`${recorder.url}/blob?id=big&size=${BIG}`),
      await get(`${recorder.url}/blob?id=after&size=${SMALL}`),
    ];
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, whole: true });
    recorder.child.kill("SIGTERM");
    expect(await recorder.exited).toBe(0);
    expect(recorder.output()).not.toContain("error[");
    expect(await ids("room.yaml")).toEqual(["first", "big", "after"]);
    expect((await readdir(files.temp.dir)).filter((n) => n.startsWith("room.yaml."))).toEqual([]);
  });
});
