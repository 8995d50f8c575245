import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../core/paths.js";

const SCRIPT = join(packageRoot(), "test", "fixtures", "full-disk", "open-cassette.ts");
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The fixture in a child, under `ulimit -f LIMIT` (0: every write to a file fails with EFBIG, as on a full disk). */
async function openUnder(limit: "0" | "unlimited") {
  const dir = await mkdtemp(join(tmpdir(), "assopay-full-disk-"));
  dirs.push(dir);
  const node = [process.execPath, "--expose-gc", "--import", "tsx", SCRIPT, dir];
  const script = `ulimit -f ${limit} && exec "$0" "$@"`;
  const { stdout } = await promisify(execFile)("bash", ["-c", script, ...node], { cwd: packageRoot() });
  return JSON.parse(stdout.trim()) as { lock?: string; open?: string; left: string[]; warnings: string[] };
}

describe("a full disk when a cassette is locked and opened for recording", () => {
  it("closes the file it could not write and removes it: no descriptor left to the garbage collector, no lock left behind", async () => {
    const outcome = await openUnder("0");
    expect(outcome.lock).toMatch(/cannot create the lock file: EFBIG/);
    expect(outcome.open).toMatch(/cannot open the cassette for writing: EFBIG/);
    expect(outcome.warnings).toEqual([]);
    // An empty lock left behind would read as another recorder's on the next start.
    expect(outcome.left).toEqual([]);
  });

  it("with room to write, the lock is taken and the cassette opened, with no warning", async () => {
    const outcome = await openUnder("unlimited");
    expect(outcome).toMatchObject({ warnings: [] });
    expect(outcome.lock).toBeUndefined();
    expect(outcome.open).toBeUndefined();
    expect(outcome.left.sort()).toEqual(["locked.yaml.lock", "opened.yaml"]);
  });
});
