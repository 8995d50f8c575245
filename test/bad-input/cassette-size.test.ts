import { open, readFile, truncate, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssopayError } from "../../core/errors.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { writeCassette } from "../proxy/support/cassettes.js";
import { tempDir } from "../proxy/support/http.js";

/** Just over what one JavaScript string can hold (2^29 - 24 characters): a whole-file read fails here. */
const HUGE = 600 * 1024 * 1024;

describe("cassettes larger than a string can hold (docs/bad-inputs.md)", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  it("loads a 600 MB cassette as a stream, every interaction in it", async () => {
    const small = temp.file("small.yaml");
    await writeCassette(small, [{ path: "/first" }, { path: "/second" }, { path: "/last" }]);
    const text = await readFile(small, "utf8");
    const cut = text.indexOf("---", text.indexOf("path: /second"));
    // Blank lines between documents weigh nothing once read: the file is huge, its content small.
    const padding = Buffer.from(`${" ".repeat(1023)}\n`.repeat(8192));
    const file = temp.file("huge.yaml");
    const handle = await open(file, "w");
    try {
      await handle.write(text.slice(0, cut));
      for (let written = 0; written < HUGE; written += padding.length) await handle.write(padding);
      await handle.write(text.slice(cut));
    } finally {
      await handle.close();
    }
    const loaded = await loadCassette(file);
    expect(loaded.interactions.map((i) => i.request.path)).toEqual(["/first", "/second", "/last"]);
    expect(loaded.interactions[2]?.source.line).toBeGreaterThan(HUGE / 1024);
    await writeFile(file, "");
  });

  it("refuses a file whose one line is longer than any cassette's, with file:line", async () => {
    const file = temp.file("zeros.bin");
    await writeFile(file, "");
    await truncate(file, HUGE);
    const error = await loadCassette(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AssopayError);
    expect((error as AssopayError).message).toMatch(/^line 1 is longer than 268435456 characters/);
    expect((error as AssopayError).location).toEqual({ file, line: 1 });
  });
});
