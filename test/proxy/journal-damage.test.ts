import { appendFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAssopayError } from "../../core/errors.js";
import { loadCassette as readCassetteFile } from "../../proxy/cassette/reader.js";
import { loadCassette } from "../../proxy/index.js";
import { crc32, parseFrames, portableCrc32 } from "../../proxy/record/journal.js";
import { startRecorder } from "../../proxy/record/server.js";
import { tempDir } from "./support/http.js";
import { emptyCassette, itemBody, journalFrameBytes, journalItems, legacyFrame } from "./support/journals.js";

const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe("recovering a damaged journal: every good frame, and nothing damaged", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  /** A cassette and a journal of ten exchanges, damaged by `damage`; then the library's loader reads it. */
  const recovered = async (name: string, damage: (journal: string, offsets: number[]) => Promise<void>) => {
    const cassette = temp.file(`${name}.yaml`);
    await emptyCassette(cassette);
    const offsets = journalItems(cassette, TEN);
    await damage(`${cassette}.journal`, offsets);
    const notices: string[] = [];
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    const onDisk = await readCassetteFile(cassette);
    const names = await readdir(temp.dir);
    return {
      cassette,
      offsets,
      notices,
      items: loaded.interactions.map((i) => Number(i.request.query?.n)),
      onDisk: onDisk.interactions.map((i) => Number(i.request.query?.n)),
      text: await readFile(cassette, "utf8"),
      journalLeft: names.includes(`${name}.yaml.journal`),
      damaged: names.includes(`${name}.yaml.journal.damaged`) ? `${cassette}.journal.damaged` : undefined,
    };
  };

  const flip = async (journal: string, at: number) => {
    const bytes = await readFile(journal);
    bytes[at] = (bytes[at] as number) ^ 0x20;
    await writeFile(journal, bytes);
  };

  it("a sound journal: all ten recovered, redacted, no damage named, the journal deleted", async () => {
    const r = await recovered("sound", async () => undefined);
    expect(r.items).toEqual(TEN);
    expect(r.onDisk).toEqual(TEN);
    expect(r.notices).toEqual([
      `recovered 10 exchange(s) into ${r.cassette} from the journal of a recorder that did not stop cleanly`,
    ]);
    expect(r.text).not.toContain("journal-secret-token");
    expect(r.journalLeft).toBe(false);
    expect(r.damaged).toBeUndefined();
  });

  it("a journal of the previous format (AJ01, no checksum) is still recovered", async () => {
    const cassette = temp.file("legacy.yaml");
    await emptyCassette(cassette);
    await writeFile(`${cassette}.journal`, Buffer.concat(TEN.map(legacyFrame)));
    const loaded = await loadCassette(cassette, { onNotice: () => undefined });
    expect(loaded.interactions.map((i) => Number(i.request.query?.n))).toEqual(TEN);
  });

  const skipped = (r: { notices: string[] }, frame: number, offset: number, id: string) => {
    const line = r.notices.find((m) => m.startsWith("skipped 1 damaged frame(s)"));
    expect(line).toContain(`frame ${frame} at byte ${offset} (`);
    expect(line).toContain(id);
    expect(line).toContain("none written to the cassette");
  };

  it("a damaged frame head: the frames before it recovered; it and all after it named and kept aside, never searched for frames", async () => {
    const r = await recovered("head", (journal, offsets) => flip(journal, (offsets[3] as number) + 6));
    expect(r.items).toEqual([1, 2, 3]);
    skipped(r, 4, r.offsets[3] as number, "id unreadable");
    expect(r.notices.join("\n")).toContain("nothing after it is read");
    expect(r.damaged).toBeDefined();
    expect((await stat(r.damaged as string)).mode & 0o777).toBe(0o600);
    const size = (await readFile(r.damaged as string)).length;
    expect(size).toBeGreaterThan((r.offsets[4] as number) - (r.offsets[3] as number));
  });

  it("a frame forged inside a recorded body never becomes an exchange, even behind a damaged head", async () => {
    const forged = (await journalFrameBytes(99)).toString("latin1");
    const cassette = temp.file("forged.yaml");
    await emptyCassette(cassette);
    const offsets = [
      ...journalItems(cassette, [1, 2, 3]),
      ...journalItems(cassette, [4], 0, forged),
      ...journalItems(cassette, [5]),
    ];
    const journal = `${cassette}.journal`;
    const bytes = await readFile(journal);
    bytes[(offsets[3] as number) + 6] = (bytes[(offsets[3] as number) + 6] as number) ^ 0x20;
    await writeFile(journal, bytes);
    const loaded = await loadCassette(cassette, { onNotice: () => undefined });
    expect(loaded.interactions.map((i) => Number(i.request.query?.n))).toEqual([1, 2, 3]);
  });

  it("a frame forged inside a body of a sound journal stays that body: every exchange once, no other", async () => {
    const forged = (await journalFrameBytes(99)).toString("latin1");
    const cassette = temp.file("forged-sound.yaml");
    await emptyCassette(cassette);
    journalItems(cassette, [1, 2, 3]);
    journalItems(cassette, [4], 0, forged);
    journalItems(cassette, [5]);
    const loaded = await loadCassette(cassette, { onNotice: () => undefined });
    expect(loaded.interactions.map((i) => Number(i.request.query?.n))).toEqual([1, 2, 3, 4, 5]);
  });

  it("a flipped byte in a frame's metadata: that frame is skipped, not fatal; all nine good ones recovered", async () => {
    // Byte 24 of the frame is the first of its metadata's JSON ("{"): no longer JSON.
    const r = await recovered("meta", (journal, offsets) => flip(journal, (offsets[3] as number) + 24 + 10));
    expect(r.items).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10]);
    skipped(r, 4, r.offsets[3] as number, "fails its checksum");
  });

  it("a flipped byte in a body: the damaged body is never written; all nine good ones recovered", async () => {
    const r = await recovered("body", async (journal, offsets) => {
      const bytes = await readFile(journal);
      const at = bytes.indexOf(itemBody(4), offsets[3]);
      await flip(journal, at + 3);
    });
    expect(r.items).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10]);
    skipped(r, 4, r.offsets[3] as number, "id 4");
    expect(r.onDisk).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10]);
  });

  it("the damage file holds the skipped bytes exactly, one stretch after the other, across read chunks", async () => {
    const cassette = temp.file("kept.yaml");
    await emptyCassette(cassette);
    // Two frames larger than recovery reads at once (8 MiB).
    const big = 9 * 1024 * 1024;
    const offsets = [
      ...journalItems(cassette, [1, 2, 3]),
      ...journalItems(cassette, [4], big),
      ...journalItems(cassette, [5, 6, 7]),
      ...journalItems(cassette, [8], big),
      ...journalItems(cassette, [9, 10]),
    ];
    const at = (i: number) => offsets[i] as number;
    const journal = `${cassette}.journal`;
    const bytes = await readFile(journal);
    // Frame 4's body: its head still says where the frame ends, 9 MiB on.
    const body = bytes.indexOf("pppp", at(3));
    bytes[body + big / 2] = (bytes[body + big / 2] as number) ^ 0x20;
    // Frame 8's head: its end is unknown, so it and everything after it are kept aside.
    bytes[at(7) + 6] = (bytes[at(7) + 6] as number) ^ 0x20;
    await writeFile(journal, bytes);
    const expected = Buffer.concat([bytes.subarray(at(3), at(4)), bytes.subarray(at(7))]);

    const notices: string[] = [];
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    expect(loaded.interactions.map((i) => Number(i.request.query?.n))).toEqual([1, 2, 3, 5, 6, 7]);
    expect(notices.find((m) => m.startsWith("skipped 2 damaged frame(s)"))).toContain("id 4");
    const kept = await readFile(`${journal}.damaged`);
    expect(kept.length).toBe(expected.length);
    expect(kept.equals(expected)).toBe(true);
  });

  it("a journal appended to itself: every exchange once, the duplicates dropped and counted", async () => {
    const r = await recovered("twice", async (journal) => appendFile(journal, await readFile(journal)));
    expect(r.items).toEqual(TEN);
    expect(r.onDisk).toEqual(TEN);
    expect(r.notices[0]).toContain("(10 duplicate frame(s) dropped)");
  });

  it("a file of the journal's name that is not a journal is left alone, said so; record refuses to write there", async () => {
    const cassette = temp.file("mine.yaml");
    await emptyCassette(cassette);
    await writeFile(`${cassette}.journal`, "my own notes\n");
    const notices: string[] = [];
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    expect(loaded.interactions).toEqual([]);
    expect(notices).toEqual([
      `left ${cassette}.journal alone: it does not start with a journal's magic (AJ02), so assopay did not write it`,
    ]);
    expect(await readFile(`${cassette}.journal`, "utf8")).toBe("my own notes\n");
    const refused = await startRecorder({ upstream: "http://127.0.0.1:9", cassette, mode: "new" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAssopayError(refused) && refused.exitCode).toBe(2);
    expect((refused as Error).message).toContain("is in the way");
    expect(await readFile(`${cassette}.journal`, "utf8")).toBe("my own notes\n");
  });

  it("the recorder's own reading end stops at a damaged frame instead of converting it", async () => {
    const cassette = temp.file("tail.yaml");
    const offsets = journalItems(cassette, [1, 2, 3]);
    const bytes = await readFile(`${cassette}.journal`);
    expect(parseFrames(bytes).entries).toHaveLength(3);
    const at = (offsets[1] as number) + 30;
    bytes[at] = (bytes[at] as number) ^ 1;
    expect(parseFrames(bytes)).toMatchObject({ end: offsets[1] });
  });

  it("the checksum is zlib's CRC-32, and the portable one for older Node versions gives the same", () => {
    const data = Buffer.from("The quick brown fox jumps over the lazy dog");
    expect(crc32(data)).toBe(0x414fa339);
    expect(portableCrc32()(data)).toBe(0x414fa339);
    expect(portableCrc32()(data.subarray(10), portableCrc32()(data.subarray(0, 10)))).toBe(0x414fa339);
    // An empty buffer over a zero-length ArrayBuffer (what the recorder's empty bodies are) changes nothing.
    expect(crc32(Buffer.from(new ArrayBuffer(0)), 12345)).toBe(12345);
  });
});
