import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/index.js";
import { startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "../proxy/support/cassettes.js";
import { send, tempDir } from "../proxy/support/http.js";
import { runCli } from "../support/run-cli.js";

describe("header values in a cassette are checked on load, by the one reader", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  /** A cassette whose one response carries `x-note: VALUE` (VALUE written as YAML), and the line it sits on. */
  async function withHeader(name: string, yamlValue: string): Promise<{ file: string; line: number }> {
    const file = temp.file(`${name}.yaml`);
    await writeCassette(file, [{ path: "/v5/partners/me", headers: { "x-note": "PLACE" } }]);
    const text = (await readFile(file, "utf8")).replace("x-note: PLACE", `x-note: ${yamlValue}`);
    await writeFile(file, text);
    return { file, line: text.split("\n").findIndex((l) => l.includes("x-note:")) + 1 };
  }

  it.each([
    ["cr-lf", '"ok\\r\\nset-cookie: evil=1"'],
    ["lf", '"a\\nb"'],
    ["nul", '"a\\0b"'],
  ])(
    "a value holding %s is bad-cassette with file:line in every reader (replay, lint, verify)",
    async (name, value) => {
      const { file, line } = await withHeader(name, value);
      const error = await loadCassette(file).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "bad-cassette",
        location: { file, line },
        message:
          "the interaction does not match the cassette schema: response.headers.x-note holds a CR, LF or NUL, which no HTTP header value may hold",
      });
      for (const argv of [
        ["lint", file],
        ["verify", "--cassette", file],
        ["replay", "--cassette", file, "--port", "0"],
      ]) {
        const result = await runCli(argv);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`error[bad-cassette]: ${file}:${line}: `);
        expect(result.stderr).not.toContain("error[internal]");
      }
    },
  );

  it("a header name that is no HTTP token is refused the same way", async () => {
    const file = temp.file("name.yaml");
    await writeCassette(file, [{ path: "/v5/partners/me", headers: { "x-note": "ok" } }]);
    await writeFile(file, (await readFile(file, "utf8")).replace("x-note: ok", '"x note": ok'));
    await expect(loadCassette(file)).rejects.toMatchObject({
      code: "bad-cassette",
      message: expect.stringContaining("has a header name that is not an HTTP token"),
    });
  });

  it("legal values (a tab, Latin-1 text, a list of cookies) load, and replay serves them", async () => {
    const file = temp.file("legal.yaml");
    await writeCassette(file, [
      {
        path: "/v5/partners/me",
        headers: { "x-note": "a\tb", "x-city": "Orléans", "content-type": "text/plain" },
      },
    ]);
    const loaded = await loadCassette(file);
    expect(loaded.interactions[0]?.response.headers["x-note"]).toBe("a\tb");
    const replay = await startReplay({ cassettes: file });
    const reply = await send(`${replay.url}/v5/partners/me`);
    await replay.close();
    expect(reply.status).toBe(200);
    expect(reply.headers["x-note"]).toBe("a\tb");
  });
});
