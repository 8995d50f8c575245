import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssopayError } from "../../core/errors.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { writeCassette } from "../proxy/support/cassettes.js";
import { tempDir } from "../proxy/support/http.js";

/** The 1-based line of a file holding `needle`. */
async function lineOf(file: string, needle: string): Promise<number> {
  return (await readFile(file, "utf8")).split("\n").findIndex((line) => line.includes(needle)) + 1;
}

/** The AssopayError a load ends with (the test fails if it loads, or fails otherwise). */
async function refusal(file: string): Promise<AssopayError> {
  const error = await loadCassette(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AssopayError);
  return error as AssopayError;
}

describe("bad cassette files get file:line messages (docs/bad-inputs.md)", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let good: string;

  beforeAll(async () => {
    temp = await tempDir();
    good = temp.file("good.yaml");
    await writeCassette(good, [
      { path: "/v5/users/me/organizations" },
      { path: "/v5/partners/me", status: 404 },
    ]);
  });
  afterAll(() => temp.remove());

  /** The good cassette with one line replaced (found by its text). */
  async function variant(name: string, from: string, to: string): Promise<string> {
    const text = await readFile(good, "utf8");
    expect(text).toContain(from);
    const file = temp.file(name);
    await writeFile(file, text.replace(from, to));
    return file;
  }

  it("says a JSON file is not a cassette, without telling to delete it", async () => {
    const file = temp.file("package.json");
    await writeFile(file, `{\n  "name": "my-app",\n  "version": "1.0.0"\n}\n`);
    const error = await refusal(file);
    expect(error.message).toBe("this file is not a cassette: it looks like a JSON document");
    expect(error.location).toEqual({ file, line: 1 });
    expect(error.hint).not.toMatch(/delete/i);
    expect((await loadCassette(good)).interactions).toHaveLength(2);
  });

  it("says a YAML or text file is not a cassette and what it looks like", async () => {
    const yaml = temp.file("compose.yaml");
    await writeFile(yaml, "# services\nservices:\n  web:\n    image: nginx\nvolumes: {}\n");
    const error = await refusal(yaml);
    expect(error.message).toBe(
      'this file is not a cassette: it looks like a YAML map with 2 keys, none of them "format"',
    );
    expect(error.location).toEqual({ file: yaml, line: 2 });
    const binary = temp.file("image.png");
    await writeFile(
      binary,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
    );
    expect((await refusal(binary)).message).toBe("this file is not a cassette: it looks like binary data");
  });

  it("refuses a self-referencing YAML alias with file:line", async () => {
    const file = await variant("self.yaml", "path: /v5/partners/me", "path: &loop [ *loop ]");
    const error = await refusal(file);
    expect(error.code).toBe("bad-cassette");
    expect(error.message).toBe("a YAML alias refers to the node that contains it (a self-reference)");
    expect(error.location).toEqual({ file, line: await lineOf(file, "*loop") });
    expect(await lineOf(file, "*loop")).toBeGreaterThan(1);
    const ct = "content-type: application/json; charset=utf-8";
    const legal = await variant(
      "alias.yaml",
      ct,
      `content-type: &ct application/json; charset=utf-8\n    x-copy: *ct`,
    );
    const loaded = await loadCassette(legal);
    expect(loaded.interactions[0]?.response.headers["x-copy"]).toBe("application/json; charset=utf-8");
  });

  it("refuses an alias bomb with file:line instead of expanding it", async () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "  e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
    ].join("\n");
    const file = await variant("bomb.yaml", "path: /v5/partners/me", `path: /v5/partners/me\n  ${bomb}`);
    const error = await refusal(file);
    expect(error.message).toMatch(/aliases expand to too much/);
    expect(error.location).toEqual({ file, line: await lineOf(file, "*a") });
  });

  it("refuses status 600 or 103 in a cassette with file:line and a hint", async () => {
    const line = (await readFile(good, "utf8")).split("\n").indexOf("  status: 404") + 1;
    expect(line).toBeGreaterThan(0);
    for (const status of [600, 999, 103, 99]) {
      const file = await variant(`status-${status}.yaml`, "  status: 404", `  status: ${status}`);
      const error = await refusal(file);
      expect(error.message).toContain(`response.status ${status} is not a final HTTP status`);
      expect(error.location).toEqual({ file, line });
      expect(error.hint).toContain("remove this interaction");
    }
    for (const status of [100, 200, 599]) {
      const file = await variant(`status-ok-${status}.yaml`, "  status: 404", `  status: ${status}`);
      expect((await loadCassette(file)).interactions[1]?.response.status).toBe(status);
    }
  });

  it("refuses a directory and a missing file with a hint that fits", async () => {
    const folder = await refusal(temp.dir);
    expect(folder.hint).toBe("pass a cassette file, not a folder");
    const missing = await refusal(temp.file("nope.yaml"));
    expect(missing.hint).toContain("check the path");
  });
});
