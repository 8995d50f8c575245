import { mkdir, readdir, readFile, rename, rmdir, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAssopayError } from "../../core/errors.js";
import { loadCassette } from "../../proxy/index.js";
import { startRecorder } from "../../proxy/record/server.js";
import { blobUpstream } from "./support/blob-upstream.js";
import { tempDir } from "./support/http.js";
import { emptyCassette, journalItems } from "./support/journals.js";
import { upstreamAndTemp } from "./support/lifecycle.js";

/**
 * What a recorder killed while its journal was sealed leaves behind (see `JournalQueue` of `proxy/record/worker-host.ts`):
 * `<file>.journal.sealed` (what it journaled first) and `<file>.journal` (what came after), or only the
 * sealed one when it was killed between the rename and the new journal.
 */
describe("recovering a sealed journal and the open one", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  /** A cassette whose journal of `sealed` was sealed, then `open` journaled in a new one. */
  const leftBehind = async (name: string, sealed: number[], open: number[]) => {
    const cassette = temp.file(`${name}.yaml`);
    await emptyCassette(cassette);
    journalItems(cassette, sealed);
    await rename(`${cassette}.journal`, `${cassette}.journal.sealed`);
    if (open.length > 0) journalItems(cassette, open);
    return cassette;
  };
  const read = async (cassette: string) => {
    const notices: string[] = [];
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    const left = (await readdir(temp.dir)).filter((n) => n.startsWith(`${cassette.split("/").pop()}.`));
    return { notices, left, items: loaded.interactions.map((i) => Number(i.request.query?.n)) };
  };

  it("both: every exchange once, the sealed one's first, redacted, and both journals deleted", async () => {
    const cassette = await leftBehind("both", [1, 2, 3, 4, 5], [6, 7, 8]);
    const r = await read(cassette);
    expect(r.items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(r.notices).toEqual([
      `recovered 8 exchange(s) into ${cassette} from the journal of a recorder that did not stop cleanly`,
    ]);
    expect(r.left).toEqual([]);
    expect(await readFile(cassette, "utf8")).not.toContain("journal-secret-token");
  });

  it("the sealed one alone (killed before the new journal was made): all of it, and it is deleted", async () => {
    const cassette = await leftBehind("sealed-only", [1, 2, 3], []);
    const r = await read(cassette);
    expect(r.items).toEqual([1, 2, 3]);
    expect(r.left).toEqual([]);
  });

  it("a sealed one the cassette already holds part of (the worker was converting it): those are not written twice", async () => {
    const cassette = temp.file("partly.yaml");
    await emptyCassette(cassette);
    journalItems(cassette, [1, 2, 3]);
    await loadCassette(cassette); // folds 1 to 3 into the cassette, as the worker would have
    journalItems(cassette, [1, 2, 3, 4, 5]);
    await rename(`${cassette}.journal`, `${cassette}.journal.sealed`);
    journalItems(cassette, [6]);
    const r = await read(cassette);
    expect(r.items).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.left).toEqual([]);
  });

  it("a reader that cannot take the cassette's lock (a live recorder holds it) serves both in memory, and leaves them", async () => {
    const cassette = await leftBehind("locked", [1, 2], [3]);
    await writeFile(`${cassette}.lock`, String(process.pid));
    const r = await read(cassette);
    expect(r.items).toEqual([1, 2, 3]);
    expect(r.notices.join("\n")).toContain(
      `serving 3 exchange(s) from ${cassette}.journal redacted in memory`,
    );
    expect(r.left.sort()).toEqual(["locked.yaml.journal", "locked.yaml.journal.sealed", "locked.yaml.lock"]);
  });

  it("a file of the sealed journal's name that is not a journal is left alone, said so; record refuses to write there", async () => {
    const cassette = temp.file("mine.yaml");
    await emptyCassette(cassette);
    await writeFile(`${cassette}.journal.sealed`, "my own notes\n");
    const r = await read(cassette);
    expect(r.items).toEqual([]);
    expect(r.notices).toEqual([
      `left ${cassette}.journal.sealed alone: it does not start with a journal's magic (AJ02), so assopay did not write it`,
    ]);
    const refused = await startRecorder({ upstream: "http://127.0.0.1:9", cassette, mode: "new" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAssopayError(refused) && refused.exitCode).toBe(2);
    expect((refused as Error).message).toContain(`${cassette}.journal.sealed is in the way`);
    expect(await readFile(`${cassette}.journal.sealed`, "utf8")).toBe("my own notes\n");
  });
});

describe("a journal that cannot be sealed (JournalQueue, proxy/record/worker-host.ts)", () => {
  const files = upstreamAndTemp(blobUpstream);

  it("stops recording with the error and a hint naming what is in the way; every exchange a client received is recovered once it is moved", async () => {
    const cassette = files.temp.file("blocked.yaml");
    const recorder = await startRecorder({ upstream: files.upstream.url, cassette });
    // Once it runs (at its start the folder would be refused as a journal it cannot read): a folder
    // where the sealed journal would go.
    await mkdir(`${cassette}.journal.sealed`);
    const received: number[] = [];
    let refused: { status: number; text: string } | undefined;
    try {
      // 1 MB bodies one after the other: the journal reaches its 16 MiB mark after 16 of them.
      for (let i = 0; i < 40 && !refused; i++) {
        const response = await fetch(`${recorder.url}/blob?id=${i}&size=${1024 * 1024}`);
        const text = await response.text();
        if (response.status === 200) received.push(i);
        else refused = { status: response.status, text };
      }
      const stopped = await recorder.stopped;
      expect(stopped.message).toMatch(
        /^cannot seal the journal .*blocked\.yaml\.journal as .*blocked\.yaml\.journal\.sealed \(EISDIR\): recording stopped/,
      );
      expect(stopped.hint).toContain(`move whatever is at ${cassette}.journal.sealed out of the way`);
      expect(refused?.status).toBe(503);
      expect(JSON.parse(refused?.text ?? "{}")).toMatchObject({ detail: stopped.message });
    } finally {
      await recorder.close();
    }
    expect(received.length).toBeGreaterThanOrEqual(16);
    await rmdir(`${cassette}.journal.sealed`);
    const ids = (await loadCassette(cassette)).interactions.map((i) => Number(i.request.query?.id));
    expect(ids).toEqual(received);
    expect((await readdir(files.temp.dir)).filter((n) => n.startsWith("blocked.yaml.journal"))).toEqual([]);
  });
});
