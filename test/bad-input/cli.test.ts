import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeCassette } from "../proxy/support/cassettes.js";
import { tempDir } from "../proxy/support/http.js";
import { runCli } from "../support/run-cli.js";

describe("bad input on the command line: exit 2, file:line, never a stack trace (docs/bad-inputs.md)", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let good: string;

  beforeAll(async () => {
    temp = await tempDir();
    good = temp.file("good.yaml");
    await writeCassette(good, [{ path: "/v5/partners/me" }]);
  });
  afterAll(() => temp.remove());

  async function variant(name: string, from: string, to: string): Promise<string> {
    const file = temp.file(name);
    await writeFile(file, (await readFile(good, "utf8")).replace(from, to));
    return file;
  }

  it("assopay replay names the file and line of every kind of malformed cassette", async () => {
    const cases = [
      [temp.file("package.json"), "this file is not a cassette: it looks like a JSON document"],
      [await variant("self.yaml", "path: /v5/partners/me", "path: &x [*x]"), "a self-reference"],
      [
        await variant(
          "bomb.yaml",
          "path: /v5/partners/me",
          `path: &a [${"x, ".repeat(20)}x]\n  b: &b [${"*a, ".repeat(20)}*a]\n  c: [${"*b, ".repeat(20)}*b]`,
        ),
        "expand to too much",
      ],
      [
        await variant("status.yaml", "status: 200", "status: 600"),
        "response.status 600 is not a final HTTP status",
      ],
    ] as const;
    await writeFile(cases[0][0], '{ "name": "app" }\n');
    for (const [file, message] of cases) {
      const result = await runCli(["replay", "--cassette", file, "--port", "0"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^error\\[bad-cassette\\]: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: `),
      );
      expect(result.stderr).toContain(message);
      expect(result.stderr).toMatch(/\nhint: /);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr).not.toMatch(/delete/i);
    }
  });

  it("assopay record refuses a --max-cassette-bytes that is not a whole number above 0", async () => {
    for (const value of ["0", "-5", "lots"]) {
      const result = await runCli([
        "record",
        "--upstream",
        "http://127.0.0.1:9",
        "--cassette",
        temp.file("r.yaml"),
        "--max-cassette-bytes",
        value,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--max-cassette-bytes must be a whole number above 0, got "${value}"`);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
