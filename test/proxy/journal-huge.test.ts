import { readdir, stat, truncate } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/index.js";
import { tempDir } from "./support/http.js";
import { emptyCassette, journalItems } from "./support/journals.js";

const GIB = 1024 * 1024 * 1024;
const HOLE = 2 * GIB + 16 * 1024 * 1024;

describe("a journal over 2 GiB", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  it("is recovered as a stream, in bounded memory: the good frames before the hole, the hole and all after it kept aside as damage", async () => {
    const cassette = temp.file("huge.yaml");
    const journal = `${cassette}.journal`;
    await emptyCassette(cassette);
    // Five frames, a sparse hole of just over 2 GiB (zeros: no frame), five more frames at the end.
    const first = journalItems(cassette, [1, 2, 3, 4, 5], 4000);
    const holeAt = (await stat(journal)).size;
    await truncate(journal, holeAt + HOLE);
    journalItems(cassette, [6, 7, 8, 9, 10], 4000);
    expect((await stat(journal)).size).toBeGreaterThan(2 * GIB);
    expect(first).toHaveLength(5);

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const notices: string[] = [];
    const started = Date.now();
    const loaded = await loadCassette(cassette, { onNotice: (m) => notices.push(m) });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const seconds = (Date.now() - started) / 1000;

    expect(loaded.interactions.map((i) => Number(i.request.query?.n))).toEqual([1, 2, 3, 4, 5]);
    expect(notices[0]).toMatch(/^recovered 5 exchange\(s\) into /);
    expect(notices[1]).toContain(`frame 6 at byte ${holeAt} (`);
    expect(notices[1]).toContain("id unreadable");
    // The growth of the resident set stays far below the journal's size.
    expect(peak - before).toBeLessThan(256 * 1024 * 1024);
    // The damaged stretch is kept, and stays a hole on disk.
    const kept = await stat(`${journal}.damaged`);
    expect(kept.size).toBeGreaterThan(HOLE);
    expect(kept.blocks * 512).toBeLessThan(64 * 1024 * 1024);
    expect(await readdir(temp.dir)).not.toContain("huge.yaml.journal");
    console.log(
      `${(HOLE / GIB).toFixed(2)} GiB journal recovered in ${seconds.toFixed(1)} s, resident set grew ${((peak - before) / 1024 / 1024).toFixed(0)} MB`,
    );
  });
});
