import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateCa } from "../../proxy/forward/ca.js";
import { tempDir } from "../proxy/support/http.js";
import { runCli } from "../support/run-cli.js";

describe("the recording CA's key", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    temp = await tempDir();
  });
  afterAll(() => temp.remove());

  it("a ca-key.pem readable by everyone (0644) is refused with a hint, by the library and by record", async () => {
    const dir = join(temp.dir, "ca");
    const made = await loadOrCreateCa(dir);
    const key = join(dir, "ca-key.pem");
    await chmod(key, 0o644);
    await expect(loadOrCreateCa(dir)).rejects.toMatchObject({
      code: "usage",
      message: `the recording CA's key ${key} has mode 0644: others on this machine may read it, and forge certificates your applications trust`,
      hint: `make it yours alone (chmod 600 ${key}), or remove it and its certificate to have a new CA made`,
    });
    const result = await runCli([
      "record",
      "--upstream",
      "http://127.0.0.1:9",
      "--cassette",
      join(temp.dir, "c.yaml"),
      "--intercept",
      "api.helloasso.com",
      "--ca-dir",
      dir,
      "--port",
      "0",
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("has mode 0644");
    await chmod(key, 0o640);
    await expect(loadOrCreateCa(dir)).rejects.toMatchObject({ code: "usage" });
    // Its owner's alone again: the same CA is used.
    await chmod(key, 0o600);
    expect((await loadOrCreateCa(dir)).certPem).toBe(made.certPem);
  });

  it("a key made by assopay (0600) is used without a word", async () => {
    const dir = join(temp.dir, "fresh");
    const first = await loadOrCreateCa(dir);
    expect((await loadOrCreateCa(dir)).certPem).toBe(first.certPem);
  });
});
