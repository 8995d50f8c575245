import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDir, makeDirSync } from "../../core/make-dir.js";
import { packageRoot } from "../../core/paths.js";
import { loadOrCreateCa } from "../../proxy/forward/ca.js";
import { tempDir } from "../proxy/support/http.js";
import { cliNodeArgs } from "../support/cli-entry.js";

/**
 * `assopay ARGS` as a child process with a deadline: Node's recursive mkdir spun forever on /proc, and a
 * spin in the test's own process could not be stopped by the test's timeout.
 */
function cliWithDeadline(argv: string[]) {
  return spawnSync(process.execPath, [...cliNodeArgs(), ...argv], {
    cwd: packageRoot(),
    encoding: "utf8",
    timeout: 300_000,
    killSignal: "SIGKILL",
    env: { ...process.env, ASSOPAY_CA_DIR: undefined },
  });
}

describe.runIf(process.platform === "linux")(
  "a folder that cannot be made: exit 2 at once, not a spin",
  () => {
    let temp: Awaited<ReturnType<typeof tempDir>>;
    beforeAll(async () => {
      temp = await tempDir();
    });
    afterAll(() => temp.remove());

    it("contracts --out /proc/nope and record --ca-dir /proc/nope are usage errors with a hint", () => {
      const cases = [
        [["contracts", "--out", "/proc/nope/pacts"], "--out /proc/nope/pacts"],
        [
          [
            "record",
            "--upstream",
            "http://127.0.0.1:9",
            "--cassette",
            temp.file("c.yaml"),
            "--intercept",
            "example.org",
            "--ca-dir",
            "/proc/nope",
          ],
          "--ca-dir /proc/nope",
        ],
      ] as const;
      for (const [argv, flag] of cases) {
        const run = cliWithDeadline([...argv]);
        expect(run.signal, `${argv.join(" ")} finished by itself`).toBeNull();
        expect(run.status, run.stderr).toBe(2);
        expect(run.stderr).toContain(`error[usage]: ${flag}: cannot create the folder /proc/nope:`);
        expect(run.stderr).toMatch(/\nhint: give --(out|ca-dir)/);
        expect(run.stderr).not.toMatch(/^\s+at /m);
      }
    });

    it("makes every missing level of a legal folder, for --out and for the CA", async () => {
      const nested = temp.file("a/b/c");
      makeDirSync(nested);
      expect(statSync(nested).isDirectory()).toBe(true);
      makeDirSync(nested); // already there: nothing to do, no error
      const caDir = temp.file("ca/x/y");
      await makeDir(caDir, 0o700);
      await makeDir(caDir, 0o700);
      expect(statSync(caDir).mode & 0o777).toBe(0o700);
      const ca = await loadOrCreateCa(temp.file("ca2/deeper"));
      expect(statSync(ca.certFile).isFile()).toBe(true);
      expect(() =>
        makeDirSync(join(temp.file("a/b/c"), "..", "..", "..", "ca", "x", "y", "z")),
      ).not.toThrow();
    });

    it("names a file in the way as the level that is not a folder", () => {
      const file = temp.file("plain.txt");
      spawnSync("touch", [file]);
      expect(() => makeDirSync(join(file, "sub"))).toThrow(/plain\.txt: it exists and is not a folder/);
    });
  },
);
