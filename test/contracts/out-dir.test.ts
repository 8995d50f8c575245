import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { generatePacts, MANIFEST_NAME, sha256 } from "../../contracts/pact/generate.js";
import { runCli } from "../support/run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "assopay-out-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const generated = generatePacts(loadContract()).map((f) => f.name);
const PROJECT_FILES = {
  "package.json": '{ "name": "my-sdk" }\n',
  "tsconfig.json": '{ "compilerOptions": {} }\n',
  "notes.txt": "keep me\n",
};

/** A fresh folder holding a project's files. */
function mkdir(name: string): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(PROJECT_FILES)) writeFileSync(join(dir, file), text);
  return dir;
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe("contracts --out DIR writes only its own files and keeps a manifest", () => {
  it("leaves every other file of the folder alone, and lists what it wrote with hashes", async () => {
    const dir = mkdir("project");
    const first = await runCli(["contracts", "--out", dir]);
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(["contracts", "--out", dir]);
    expect(again.code, again.stderr).toBe(0);
    for (const [file, text] of Object.entries(PROJECT_FILES))
      expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), "utf8")) as {
      files: { name: string; sha256: string }[];
    };
    expect(manifest.files.map((f) => f.name)).toEqual(generated);
    for (const entry of manifest.files)
      expect(sha256(readFileSync(join(dir, entry.name)))).toBe(entry.sha256);
  });

  it("removes a file its previous run wrote that the contract no longer generates, and nothing else", async () => {
    const dir = mkdir("regenerate");
    await runCli(["contracts", "--out", dir]);
    const old = "assopay-consumer-association-payment-api-v5.as-of-2020-01-01.json";
    const manifestFile = join(dir, MANIFEST_NAME);
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
      files: { name: string; sha256: string }[];
    };
    writeFileSync(join(dir, old), "{}\n");
    manifest.files.push({ name: old, sha256: sha256("{}\n") });
    writeFileSync(manifestFile, JSON.stringify(manifest));
    writeFileSync(join(dir, "other.json"), "{}\n");
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, old))).toBe(false);
    expect(readFileSync(join(dir, "other.json"), "utf8")).toBe("{}\n");
  });

  it("refuses to overwrite a file of the same name it did not write: exit 2, nothing written", async () => {
    const dir = mkdir("clash");
    const name = generated[0] ?? "";
    await runCli(["contracts", "--out", dir]);
    rmSync(join(dir, MANIFEST_NAME));
    writeFileSync(join(dir, name), '{ "mine": true }\n');
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/exists and is not a pact assopay wrote: it is kept, nothing was written/);
    expect(run.stderr).toContain("--force");
    noStack(run.stderr);
    expect(readFileSync(join(dir, name), "utf8")).toBe('{ "mine": true }\n');
    expect(existsSync(join(dir, MANIFEST_NAME))).toBe(false);
  });

  it("replaces a pact this generator wrote before manifests existed (a folder from an earlier version)", async () => {
    const dir = mkdir("legacy");
    await runCli(["contracts", "--out", dir]);
    rmSync(join(dir, MANIFEST_NAME));
    const name = generated[0] ?? "";
    const pact = JSON.parse(readFileSync(join(dir, name), "utf8")) as { interactions: unknown[] };
    writeFileSync(join(dir, name), JSON.stringify({ ...pact, interactions: [] }));
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dir, MANIFEST_NAME))).toBe(true);
    expect(
      (JSON.parse(readFileSync(join(dir, name), "utf8")) as { interactions: unknown[] }).interactions.length,
    ).toBe(pact.interactions.length);
  });

  it("a file the manifest lists whose hash no longer matches is the user's: kept and said so, never deleted", async () => {
    const dir = mkdir("wrong-hash");
    await runCli(["contracts", "--out", dir]);
    const old = "assopay-consumer-association-payment-api-v5.as-of-2020-01-01.json";
    const manifestFile = join(dir, MANIFEST_NAME);
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
      files: { name: string; sha256: string }[];
    };
    writeFileSync(join(dir, old), '{ "mine": true }\n');
    manifest.files.push({ name: old, sha256: sha256("{}\n") });
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`kept ${join(dir, old)}: modified since assopay contracts wrote it`);
    expect(readFileSync(join(dir, old), "utf8")).toBe('{ "mine": true }\n');
    // No longer listed: later runs leave it alone.
    expect(readFileSync(manifestFile, "utf8")).not.toContain(old);
  });

  it("a generated pact edited by hand is not replaced: exit 2 naming it, untouched; --force replaces it", async () => {
    const dir = mkdir("hand-edited");
    await runCli(["contracts", "--out", dir]);
    const name = generated[0] ?? "";
    const pact = JSON.parse(readFileSync(join(dir, name), "utf8")) as { interactions: unknown[] };
    const edited = `${JSON.stringify({ ...pact, interactions: pact.interactions.slice(1) }, null, 2)}\n`;
    writeFileSync(join(dir, name), edited);
    const manifestBefore = readFileSync(join(dir, MANIFEST_NAME), "utf8");
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${join(dir, name)} was written by assopay contracts and has been modified since`,
    );
    expect(run.stderr).toContain(
      "hint: choose another --out, move the file away, or add --force to replace it",
    );
    noStack(run.stderr);
    expect(readFileSync(join(dir, name), "utf8")).toBe(edited);
    expect(readFileSync(join(dir, MANIFEST_NAME), "utf8")).toBe(manifestBefore);
    const forced = await runCli(["contracts", "--out", dir, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(
      (JSON.parse(readFileSync(join(dir, name), "utf8")) as { interactions: unknown[] }).interactions.length,
    ).toBe(pact.interactions.length);
  });

  it("a manifest that is not one is named with its path: exit 2, nothing removed", async () => {
    const dir = mkdir("bad-manifest");
    writeFileSync(join(dir, MANIFEST_NAME), "{ not json");
    const run = await runCli(["contracts", "--out", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(dir, MANIFEST_NAME));
    noStack(run.stderr);
    expect(readdirSync(dir).sort()).toEqual([MANIFEST_NAME, ...Object.keys(PROJECT_FILES)].sort());
  });

  it("--check looks only at its own files: other files are not stale, a changed one is", async () => {
    const dir = mkdir("check");
    await runCli(["contracts", "--out", dir]);
    const clean = await runCli(["contracts", "--check", "--out", dir]);
    expect(clean.code, clean.stdout).toBe(0);
    writeFileSync(join(dir, generated[0] ?? ""), "{}\n");
    const stale = await runCli(["contracts", "--check", "--out", dir]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(generated[0]);
    expect(stale.stdout).not.toContain("package.json");
  });

  it("--out FILE and --check --out MISSING_DIR are usage errors: exit 2, a clear message, no stack trace", async () => {
    const file = join(scratch, "package.json");
    writeFileSync(file, PROJECT_FILES["package.json"]);
    const onFile = await runCli(["contracts", "--out", file]);
    expect(onFile).toMatchObject({ code: 2, stderr: expect.stringMatching(/is a file, not a folder/) });
    noStack(onFile.stderr);
    expect(readFileSync(file, "utf8")).toBe(PROJECT_FILES["package.json"]);
    const missing = await runCli(["contracts", "--check", "--out", join(scratch, "nowhere")]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/no such folder/) });
    noStack(missing.stderr);
    expect(readdirSync(scratch)).not.toContain("nowhere");
    const under = await runCli(["contracts", "--out", join(file, "pacts")]);
    expect(under).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot create the folder/) });
    noStack(under.stderr);
  });
});
