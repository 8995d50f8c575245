import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../support/run-cli.js";

const scratch = () => mkdtempSync(join(tmpdir(), "assopay-openapi-cli-"));

describe("assopay openapi", () => {
  it("writes YAML for .yaml and JSON for .json, and overwrites its own file", async () => {
    const dir = scratch();
    const yamlFile = join(dir, "openapi.yaml");
    const first = await runCli(["openapi", "--at", "2025-04-01", "--out", yamlFile]);
    expect(first.code, first.stderr).toBe(0);
    expect(parse(readFileSync(yamlFile, "utf8")).info["x-assopay-at"]).toBe("2025-04-01");
    const again = await runCli(["openapi", "--at", "2026-01-01", "--out", yamlFile]);
    expect(again.code, again.stderr).toBe(0);
    expect(parse(readFileSync(yamlFile, "utf8")).info["x-assopay-at"]).toBe("2026-01-01");
    const jsonFile = join(dir, "openapi.json");
    expect((await runCli(["openapi", "--at", "2025-04-01", "--out", jsonFile])).code).toBe(0);
    expect(JSON.parse(readFileSync(jsonFile, "utf8")).openapi).toBe("3.1.0");
  });

  it("prints to standard output, in the --format asked", async () => {
    const result = await runCli(["openapi", "--at", "2025-04-01", "--format", "json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).info["x-generated-by"]).toBe("assopay openapi");
  });

  it("refuses to overwrite a file it did not write: exit 2, a hint, the file untouched; --force replaces it", async () => {
    const dir = scratch();
    for (const [name, text] of [
      ["notes.yaml", "title: my notes\n"],
      [
        "theirs.json",
        JSON.stringify({ openapi: "3.1.0", info: { title: "theirs", version: "1" }, paths: {} }),
      ],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const result = await runCli(["openapi", "--out", file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("is not an OpenAPI document assopay wrote");
      expect(result.stderr).toContain("hint: choose another --out");
      expect(readFileSync(file, "utf8")).toBe(text);
      const forced = await runCli(["openapi", "--out", file, "--force"]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(file, "utf8")).toContain("assopay openapi");
    }
  });

  it("a file name that does not tell the format, or an unknown --format, is a usage error", async () => {
    const noExtension = await runCli(["openapi", "--out", join(scratch(), "openapi.txt")]);
    expect(noExtension.code).toBe(2);
    expect(noExtension.stderr).toContain("hint: name it .yaml, .yml or .json, or pass --format yaml|json");
    const badFormat = await runCli(["openapi", "--format", "xml"]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain("--format must be one of yaml, json");
  });
});
